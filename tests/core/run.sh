#!/bin/bash
# Unit tests of core/ (tests/core/test-core.c).
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
