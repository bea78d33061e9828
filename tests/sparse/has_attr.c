/* __has_attribute sees the checker's attributes */
#if __has_attribute(cacheline_hot) && __has_attribute(cacheline_exclusive) && \
    __has_attribute(cacheline_read_mostly) && __has_attribute(__cacheline_hot__)
#warning "cachehot attributes registered"
#endif
struct incl use_it;
