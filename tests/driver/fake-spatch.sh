#!/bin/sh
# tests/driver: stands in for spatch in report mode (columns 0-based).
for src; do :; done
case "$*" in *--cocci-file*) ;; *) echo "fake-spatch: no --cocci-file" >&2; exit 2;; esac
echo "$src:6:16-20: counter 'hits' updated in a loop"
