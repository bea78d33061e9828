# userspace/expected.sh -- sourced by the userspace scripts: compare the
# warnings of a real program with the expected list kept in userspace/.
# match_expected TAG WHAT EXPECTED NEW: diff EXPECTED against NEW (one
# warning a line, sorted) into NEW's .diff; prints "TAG: WHAT match ..." or
# the diff's head and "TAG: WHAT differ ..." on stderr; status 0 on a match,
# 1 on a difference or a missing EXPECTED.
match_expected() {
	local tag=$1 what=$2 exp=$3 new=$4
	if [ -f "$exp" ] && diff -u "$exp" "$new" >"${new%.txt}.diff"; then
		echo "$tag: $what match $exp ($(wc -l <"$exp") lines)"
		return 0
	fi
	[ -f "$exp" ] && head -60 "${new%.txt}.diff"
	echo "$tag: $what differ from $exp (new: $new)" >&2
	return 1
}
