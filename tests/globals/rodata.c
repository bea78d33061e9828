/* A const annotated hot: in .rodata it is never written, so the annotation
 * is wrong (a note), not "every write takes the line". */
#include <cachehot.h>
const unsigned long ro_limit __cacheline_hot = 7;
const unsigned long ro_other = 9;
unsigned long get(int i);
unsigned long get(int i) { return i ? ro_limit : ro_other; }
