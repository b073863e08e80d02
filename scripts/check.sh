#!/bin/sh
# The whole test suite, from a fresh clone on Debian 12, as root:
# installs what is missing, builds (warnings are errors, ASan/UBSan on),
# runs both tiers of `make check-full`: unit (cmocka), daemon, namespace,
# QEMU, systemd and fuzz tests.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh" --test
build=${BUILD_DIR:-$top/build-check}
mkdir -p "$build"
# The fresh-machine tier: both README commands in a fresh Debian 12
# container (scripts/fresh-debian.sh), so that "green on a fresh
# machine" is checked by every run, not hoped. It runs beside the rest
# (most of its time is the mirror and its own suite) and is waited for
# at the end. Not inside that container itself (it would recurse), and
# not with ROCED_FRESH=0 (a developer's quick loop): either way the
# summary says it was skipped and why.
fresh_pid="" fresh_skip="" fresh_t0=$(date +%s)
fresh_log=$build/fresh-debian.log
rm -f "$fresh_log"
if [ -n "${ROCED_FRESH_INNER:-}" ]; then
	fresh_skip="this run is the fresh-machine container's own"
elif [ "${ROCED_FRESH:-1}" = 0 ]; then
	fresh_skip="ROCED_FRESH=0 was given"
else
	# Its own session, so that a run stopped early stops it whole.
	fresh_dir=/var/tmp/roced-fresh-$$
	setsid -w "$top/scripts/fresh-debian.sh" "$fresh_dir" >"$fresh_log" 2>&1 &
	fresh_pid=$!
	trap 'kill -TERM "-$fresh_pid" 2>/dev/null || true' EXIT
fi
BUILD_DIR=$build "$top/scripts/build.sh" --enable-werror --enable-sanitizers
cd "$build"
rc=0
# Nothing the run starts may outlive it. Its processes carry
# ROCED_TEST_RUN in their environment and its namespaces end with -$run
# (tests/integration/lib.sh), its temporary files go to a TMPDIR of its
# own: after `make check` (so after every parallel test), what is left of
# them fails the run, and is then removed. Other engineers' runs on this
# machine are not counted (tests/tools/leftovers.py).
run="ck$$"
runtmp=$(mktemp -d /tmp/roced-check.XXXXXX)
trap 'rm -rf "$runtmp" .leftovers.json; [ -z "$fresh_pid" ] || kill -TERM "-$fresh_pid" 2>/dev/null || true' EXIT
# Tests run some programs as nobody from their temporary directories.
chmod 755 "$runtmp"
leftovers() { python3 "$top/tests/tools/leftovers.py" "$@"; }
leftovers snapshot .leftovers.json --build-dir "$PWD"
# A build that fails stops make before any test runs: results of an
# earlier run must not be counted as this one's.
rm -f tests/*/*.trs tests/*/*.log
# The quick tier first (`make check`, timed: its wall clock is printed
# against its budget in tests/budgets, named, not failed), then what the
# full tier adds (run whatever the first gave: CI wants every result).
load() { cut -d' ' -f1 /proc/loadavg; }
# The test programs (check_PROGRAMS: the sanitizer-built cmocka tests and
# the tools) are built before the clock starts, so that the quick tier's
# wall clock times the tests, not their compilation (at load 10 that was
# more than half of it). `make check TESTS=` builds exactly what
# `make check` would and runs nothing.
t0=$(date +%s)
ROCED_TEST_RUN=$run TMPDIR=$runtmp make -j"$(nproc)" check TESTS= >make-check.out 2>&1 || rc=$?
build_wall=$(($(date +%s) - t0))
echo "test programs built in $build_wall s"
t0=$(date +%s) load0=$(load)
[ "$rc" != 0 ] || ROCED_TEST_RUN=$run TMPDIR=$runtmp make -j"$(nproc)" check >>make-check.out 2>&1 || rc=$?
quick_wall=$(($(date +%s) - t0)) quick_load="$load0 to $(load)"
ROCED_TEST_RUN=$run TMPDIR=$runtmp make -j"$(nproc)" check-full-tier >>make-check.out 2>&1 || rc=$?
grep -E '^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR):' make-check.out || true

# The cmocka summaries of the unit tests, so the run shows what ran.
for log in $(ls tests/unit/*.log tests/daemon/*.log 2>/dev/null); do
	echo "== ${log%.log}"
	grep -E '^\[ *(RUN|PASSED|FAILED|SKIPPED|  OK|  FAILED|  ERROR) *\]|tests? ran' "$log" | grep -vE '^\[ *(RUN|  OK) *\]' || true
done
# Skips must say why.
# (automake's .trs files say ":test-result: SKIP"; the reason is the
# test's "SKIP: ..." line, and the log's end.)
for log in $(grep -l '^:test-result: SKIP' tests/*/*.trs 2>/dev/null | sed 's/\.trs$/.log/'); do
	echo "== skipped: ${log%.log}"
	grep -E '^(SKIP|skip|note)' "$log" | head -n 3 || true
	tail -n 2 "$log"
done
trs_files=$(ls tests/*/*.trs 2>/dev/null || true)
if [ "$rc" != 0 ]; then
	echo "== failures"
	for trs in $(grep -lE '^:test-result: (FAIL|ERROR)' $trs_files /dev/null); do
		log=${trs%.trs}.log
		# Why it failed first: a namespace test's FAIL:/ERROR: line
		# (followed in its log by the daemons' logs it shows), a
		# cmocka test's failed assertions; then the log's end.
		echo "---- $log"
		grep -E '^(FAIL|ERROR): |^\[  (FAILED|ERROR)  \]|[^ ]+:[0-9]+: error: ' "$log" | head -n 10 || true
		echo "---- its last lines:"
		tail -n 40 "$log"
	done
	# A build error stops make before any test runs: show it.
	[ -n "$trs_files" ] || tail -n 40 make-check.out
fi
# The fresh-machine tier's verdict, counted with the rest.
fresh_pass=0 fresh_fail=0 fresh_skips=0
if [ -n "$fresh_pid" ]; then
	if wait "$fresh_pid"; then
		fresh_ok=1
	else
		fresh_ok=""
	fi
	fresh_pid=""
	if [ -n "$fresh_ok" ]; then
		fresh_pass=1
		echo "PASS: fresh Debian 12 container, both README commands ($(($(date +%s) - fresh_t0)) s)"
	else
		fresh_fail=1 rc=1
		echo "FAIL: fresh Debian 12 container ($(($(date +%s) - fresh_t0)) s; log: $fresh_log)"
		tail -n 60 "$fresh_log"
	fi
	grep -E '^fresh-debian: |^tests: ' "$fresh_log" | sed 's/^/  /' || true
	# Its logs beside this run's; nothing of it left in /var/tmp.
	for f in demo check mmdebstrap; do
		cp "$fresh_dir/$f.log" "$build/fresh-$f.log" 2>/dev/null || true
	done
	rm -rf "$fresh_dir"
else
	fresh_skips=1
	echo "SKIP: fresh Debian 12 container: $fresh_skip"
fi
count() { grep -cE "^:test-result: ($1)" $trs_files /dev/null | awk -F: '{s+=$NF} END {print s+0}'; }
pass=$(($(count PASS) + fresh_pass))
fail=$(($(count 'FAIL|ERROR|XPASS') + fresh_fail))
skip=$(($(count SKIP) + fresh_skips))
echo "tests: $pass passed, $fail failed, $skip skipped"
# How long each took, in wall clock and CPU, against tests/budgets.
"$top/tests/tools/tier-times" "$top" "$quick_wall" "$quick_load" $trs_files || true
leftovers check .leftovers.json --build-dir "$PWD" --run "$run" --tmpdir "$runtmp" --reap || rc=1
exit "$rc"
