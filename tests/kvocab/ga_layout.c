/* ga_sock laid out by the compiler, for the DWARF and BTF readers. */
#include "ga_sock.h"
struct ga_sock ga_sock_instance;
