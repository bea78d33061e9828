# userspace/rules.mk -- cachehot on real userspace programs (network: Debian
# source packages; never part of make check). docs/userspace.md.
.PHONY: userspace-check
# memcached from Debian's source package, built by its own autotools with
# the plugin and examples/memcached.annotations; the CI gate on the build
# log and the compile database, cachehot-layout on the binary, all findings
# against userspace/memcached.expected. About 1 min at -j2.
userspace-check: deps $(PLUGIN_SO) bin/cachehot bin/cachehot-layout
	userspace/memcached-check.sh

.PHONY: userspace-haproxy
# HAProxy from Debian's source package, built by its own Makefile; then
# cachehot annotate --build and cachehot check with the inferred sidecar
# (and examples/haproxy.annotations when present), every warning against
# userspace/haproxy.expected (docs/userspace.md). About 10 min at -j2.
userspace-haproxy: deps $(PLUGIN_SO) bin/cachehot bin/cachehot-layout
	userspace/haproxy-check.sh

.PHONY: record-haproxy
# HAProxy judged by its code and its own runs together: a recording build,
# three wrk workloads, cachehot annotate --profile with the access facts of
# make userspace-haproxy (run first when missing), cachehot check with each
# sidecar; warnings against userspace/haproxy-record.expected
# (docs/userspace.md). About 6 min at -j2 after userspace-haproxy.
record-haproxy: deps
	@$(MAKE) --no-print-directory all
	@userspace/haproxy-record.sh

.PHONY: userspace-apache2
# Apache httpd (event MPM) from Debian's source package, built by its own
# configure; cachehot annotate --build, then with a recorded run under wrk
# on loopback (--profile); cachehot check with both sidecars, every warning
# against userspace/apache2-static.expected and apache2-both.expected
# (docs/userspace.md). About 8 min at -j2.
userspace-apache2: deps $(PLUGIN_SO) $(RT_SO) bin/cachehot bin/cachehot-layout
	userspace/apache2-check.sh
