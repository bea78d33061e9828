/* Robustness: C++ templates (not laid out when FINISH_TYPE fires) and classes. */
#include "cachehot.h"
template <typename T> struct tpl { T x __cacheline_hot; T y __cacheline_read_mostly; };
tpl<long> tl;
struct cls { virtual ~cls(); long a __cacheline_hot; long b __cacheline_read_mostly; int m(); };
cls::~cls() {}
