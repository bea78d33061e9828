/* Enum members laid out as GCC lays them out (compared with the plugin by
 * tests/sparse/run.sh): packed enums (attribute after the body, before the
 * tag, on a typedef'd definition), mode(M) on an enum and on a member of
 * enum type, aligned(N) on an enum (no effect in GCC), enums whose values
 * need unsigned int or long, enum bit-fields. Sparse alone gave every enum
 * four bytes or more (the struct was 144 bytes, not 128): 'cfg' joined
 * 'hits' on line 1 (a false finding) and 'refs' left 'cfg''s line (a finding
 * missed), and mode(QI) on 'small' was an error. */
#include "cachehot.h"
enum obj_type { OBJ_NONE, OBJ_LISTENER, OBJ_SERVER } __attribute__((packed));
enum __attribute__((__packed__)) conn_state { CS_INIT, CS_DONE = 300 };
typedef enum { PR_OFF, PR_ON } __attribute__((packed)) proxy_mode_t;
enum tiny { TINY_A } __attribute__((mode(byte)));
typedef enum { HALF_A = -5 } __attribute__((__mode__(__HI__))) half_t;
enum wide_u { WIDE_U = 0x80000000u };
enum wide_l { WIDE_L = 0x100000000 };
enum over_aligned { OA_A } __attribute__((aligned(16)));
enum plain { PLAIN_A, PLAIN_B };

struct conn {
	enum obj_type obj_type;
	enum conn_state state;
	proxy_mode_t pmode;
	enum tiny tiny;
	half_t half;
	enum plain small __attribute__((mode(QI)));
	enum obj_type kind : 2;
	enum obj_type sub : 6;
	enum conn_state flags : 9;
	char name[43];
	unsigned long hits __cacheline_hot;
	unsigned long cfg __cacheline_read_mostly;
	enum wide_u wu;
	enum over_aligned oa;
	enum wide_l wl;
	char tail[24];
	unsigned long refs __cacheline_hot;
	enum obj_type mode __cacheline_read_mostly;
};
struct conn c;
/* expect:
 * 20:8: note: 'struct conn' is aligned to 8 bytes, less than the 64-byte cache line: line indexes assume it starts on a line boundary, so isolation depends on where it is placed (declare its first member _Alignas(64); a heap object or array then needs aligned_alloc(64, size) or posix_memalign instead of malloc or calloc, a static one follows the type; or separate its fields with 63-byte pads, which isolate wherever it starts) [cachehot-false-sharing]
 * 37:23: warning: hot field 'refs' (offset 112, size 8) shares cache line 1 (64-byte lines) of 'struct conn' with read-mostly field 'cfg' (offset 64, size 8); one fix for all of 'struct conn': declare 'refs' _Alignas(64), and move 'mode' after 'tail'; this costs 64 bytes per object (128 -> 192 bytes; an array of n grows by 64*n bytes) [cachehot-false-sharing]
 * 38:23: warning: read-mostly field 'mode' (offset 120, size 1) shares cache line 1 (64-byte lines) of 'struct conn' with hot field 'refs' (offset 112, size 8); one fix for all of 'struct conn': declare 'refs' _Alignas(64), and move 'mode' after 'tail'; this costs 64 bytes per object (128 -> 192 bytes; an array of n grows by 64*n bytes) [cachehot-false-sharing]
 */
