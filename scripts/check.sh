#!/bin/sh
# The whole test suite, from a fresh clone on Debian 12, as root:
# installs what is missing, builds (warnings are errors, ASan/UBSan on),
# runs unit (cmocka), integration, namespace and QEMU tests.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh" --test
BUILD_DIR=${BUILD_DIR:-$top/build-check} "$top/scripts/build.sh" --enable-werror --enable-sanitizers
cd "${BUILD_DIR:-$top/build-check}"
rc=0
make -j"$(nproc)" check >make-check.out 2>&1 || rc=$?
grep -E '^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR):' make-check.out || true

# The cmocka summaries of the unit tests, so the run shows what ran.
for log in tests/unit/*.log; do
	echo "== ${log%.log}"
	grep -E '^\[ *(RUN|PASSED|FAILED|SKIPPED|  OK|  FAILED|  ERROR) *\]|tests? ran' "$log" | grep -vE '^\[ *(RUN|  OK) *\]' || true
done
# Skips must say why.
for log in $(grep -l '^SKIP' tests/*/*.trs 2>/dev/null | sed 's/\.trs$/.log/'); do
	echo "== skipped: ${log%.log}"; tail -n 3 "$log"
done
if [ "$rc" != 0 ]; then
	echo "== failures"
	for trs in $(grep -lE '^:test-result: (FAIL|ERROR)' tests/*/*.trs); do
		echo "---- ${trs%.trs}.log"; tail -n 60 "${trs%.trs}.log"
	done
fi
pass=$(grep -c '^:test-result: PASS' tests/*/*.trs | awk -F: '{s+=$2} END {print s+0}')
fail=$(grep -cE '^:test-result: (FAIL|ERROR|XPASS)' tests/*/*.trs | awk -F: '{s+=$2} END {print s+0}')
skip=$(grep -c '^:test-result: SKIP' tests/*/*.trs | awk -F: '{s+=$2} END {print s+0}')
echo "test files: $pass passed, $fail failed, $skip skipped"
exit "$rc"
