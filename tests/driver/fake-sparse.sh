#!/bin/sh
# tests/driver: stands in for bin/cachehot-sparse. Prints, for the source
# (last argument), the plugin's finding on hot.c again (another column), one
# finding of its own, and a plain sparse warning the driver must ignore; and
# writes the two findings as records (-fcachehot-findings=FILE), which is all
# the driver reads.
rec=
for a; do case "$a" in -fcachehot-findings=*) rec=${a#-fcachehot-findings=};; esac; src=$a; done
MSG="read-mostly field 'limit' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct stats' with hot field 'hits' (offset 0, size 8); one fix for all of 'struct stats': declare 'limit' _Alignas(64); this costs 64 bytes per object (64 -> 128 bytes; an array of n grows by 64*n bytes)"
echo "$src:7:9: warning: $MSG [cachehot-false-sharing]"
echo "$src:6:23: note: sparse-only note on 'hits' [cachehot-false-sharing]"
echo "$src:1:1: warning: symbol 'st' was not declared. Should it be static?"
if [ -n "$rec" ]; then
	cat >"$rec" <<REC
{"cachehot_finding": 1, "engine": "sparse", "check": "cachehot-false-sharing", "severity": "warning", "file": "$src", "line": 7, "column": 9, "struct": "stats", "field": "limit", "other": "hits", "line_size": 64, "message": "$MSG"}
{"cachehot_finding": 1, "engine": "sparse", "check": "cachehot-false-sharing", "severity": "note", "file": "$src", "line": 6, "column": 23, "struct": "stats", "field": "hits", "line_size": 64, "message": "sparse-only note on 'hits'"}
REC
fi
exit 0
