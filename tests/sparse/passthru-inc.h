/* passed with -include: sparse's own argument handling must see it */
#define PASSTHRU_INC 1
