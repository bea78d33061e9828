#!/bin/sh
# tests/driver: stands in for bin/cachehot-sparse. Prints, for the source
# (last argument), the plugin's finding on hot.c again (another column), one
# finding of its own, and a plain sparse warning the driver must ignore.
for src; do :; done
echo "$src:7:9: warning: read-mostly field 'limit' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct stats' with hot field 'hits' (offset 0, size 8); one fix for all of 'struct stats': declare 'limit' _Alignas(64); this costs 64 bytes per object (64 -> 128 bytes; an array of n grows by 64*n bytes) [cachehot-false-sharing]"
echo "$src:6:23: note: sparse-only note on 'hits' [cachehot-false-sharing]"
echo "$src:1:1: warning: symbol 'st' was not declared. Should it be static?"
exit 0
