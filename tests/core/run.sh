#!/bin/bash
# Unit tests of core/ (tests/core/test-*.c, run by test-core.c).
. "$(dirname "$0")/../lib.sh"
bin=$BUILD/core/test-core
[ -x "$bin" ] || { fail core-build "$bin missing (make core)"; exit 0; }
"$bin" | while IFS= read -r l; do
	case "$l" in
	PASS:*) ok "${l#PASS: }" ;;
	FAIL:*) n=${l#FAIL: }; fail "${n%%:*}" "${n#*:}" ;;
	*) echo "      $l" ;;
	esac
done
# test-core returns 0 after its last check: anything else (a signal, an
# abort) stopped it before the checks it did not print, which no line
# above counts (tests/run.sh counts this suite failed)
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 0 ]; then
	echo "  test-core exited with status $rc before its last check"
	exit 1
fi
