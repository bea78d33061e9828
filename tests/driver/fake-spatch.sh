#!/bin/sh
# tests/driver: stands in for spatch running a rule in report mode (columns
# 0-based) with its records asked (-D cachehot_records: one record line a
# report, columns 1-based), which is all the driver reads.
records=
prev=
for a; do
	[ "$prev" = -D ] && [ "$a" = cachehot_records ] && records=1
	prev=$a src=$a
done
case "$*" in *--cocci-file*) ;; *) echo "fake-spatch: no --cocci-file" >&2; exit 2;; esac
echo "$src:6:16-20: counter 'hits' updated in a loop"
[ -n "$records" ] && echo "{\"cachehot_finding\": 1, \"engine\": \"cocci\", \"check\": \"cachehot-counter_batch\", \"severity\": \"warning\", \"file\": \"$src\", \"line\": 6, \"column\": 17, \"struct\": null, \"function\": \"count\", \"field\": \"hits\", \"other\": null, \"message\": \"counter 'hits' updated in a loop\"}"
exit 0
