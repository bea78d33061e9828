/* Stock sparse warnings and arguments pass through cachehot-sparse unchanged. */
#ifndef PASSTHRU_INC
#error "-include was not applied"
#endif
static int x = __CHK_DEFINED;
int f(void);
int f(void) { int x = 1; return x; }
#if __CHK_DEFINED != 3
#error "-D was not applied"
#endif
int g(void);
int g(void) { return not_defined; }
