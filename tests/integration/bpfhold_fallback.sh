#!/bin/sh
# bpfhold_fallback: where the kernel cannot hold a paused priority by
# itself (no sch_fq: this machine's kernel), attaching software PFC's
# kernel path (daemon/kernel/bpfhold.c, through tests/tools/pfchold)
# fails with one sentence that says why, and leaves nothing behind: no
# loop (rocedhN*), no clsact, no filter; `roced --release-holds` then
# finds nothing of it to remove. A program the verifier refuses and a
# map that cannot be created (made so by ROCED_BPFHOLD_FAIL, here where
# the loader runs before the loop is made) fail the same way, each
# named. Skipped where sch_fq is present (the
# QEMU tier's fullkernel_bpfhold.sh covers that kernel) or roced was
# built without its BPF programs.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
. "$top_srcdir/tests/integration/lib.sh"
t_init bpfhold_fallback
t_need_root
pfchold=$top_builddir/tests/tools/pfchold
[ -x "$pfchold" ] || t_fail "test tools not built (make check builds them)"
grep -q '^#define HAVE_BPF_PROGS 1' "$top_builddir/config.h" 2>/dev/null ||
	t_skip "roced was built without its BPF programs (libbpf-dev, clang)"
t_need_bpf "software PFC's kernel path"

t_netns_add sw bpfhold-fb
$IP -n "$sw" link add swp1 type veth peer name peer1
$IP -n "$sw" link set swp1 up
$IP -n "$sw" link set peer1 up
if $IP netns exec "$sw" tc qdisc add dev peer1 root fq 2>/dev/null; then
	t_skip "this kernel has sch_fq: fullkernel_bpfhold.sh (QEMU tier) tests the kernel path there"
fi

rc=0
$IP netns exec "$sw" "$pfchold" attach swp1 >"$t_tmp/out" 2>&1 || rc=$?
cat "$t_tmp/out"
[ $rc -eq 1 ] || t_fail "pfchold attach exited $rc on a kernel without sch_fq"
[ "$(wc -l <"$t_tmp/out")" = 1 ] || t_fail "more than one line of error"
grep -q "swp1: cannot create the hold's loop (a veth pair with fq): the kernel has no sch_fq" "$t_tmp/out" ||
	t_fail "the error does not say the loop (fq) is what is missing"
! $IP -n "$sw" -br link | grep -q '^rocedh' ||
	t_fail "a loop was left behind: $($IP -n "$sw" -br link)"
! $IP netns exec "$sw" tc qdisc show dev swp1 | grep -q clsact ||
	t_fail "a clsact was left on swp1"
$IP netns exec "$sw" "$top_builddir/roced" --release-holds --force >"$t_tmp/rel" 2>&1 ||
	t_fail "roced --release-holds failed: $(cat "$t_tmp/rel")"
! grep -q 'kernel PFC hold' "$t_tmp/rel" ||
	t_fail "--release-holds found a kernel hold: $(cat "$t_tmp/rel")"
# A program the verifier refuses and a map that cannot be created
# (ROCED_BPFHOLD_FAIL, roced(8) ENVIRONMENT): one sentence naming the
# program and the verifier's verdict, or the map; nothing left behind.
for fail in verifier map; do
	case $fail in
	verifier) want="swp1: BPF program pfc_tx refused: invalid bpf_context access" ;;
	map) want="swp1: BPF map pfc_state cannot be created: Invalid argument" ;;
	esac
	rc=0
	ROCED_BPFHOLD_FAIL=$fail $IP netns exec "$sw" "$pfchold" attach swp1 >"$t_tmp/out" 2>&1 || rc=$?
	cat "$t_tmp/out"
	[ $rc -eq 1 ] || t_fail "$fail: pfchold attach exited $rc"
	[ "$(wc -l <"$t_tmp/out")" = 1 ] || t_fail "$fail: more than one line of error"
	grep -q "$want" "$t_tmp/out" || t_fail "$fail: the error does not say /$want/"
	! $IP -n "$sw" -br link | grep -q '^rocedh' || t_fail "$fail: a loop was left behind"
	! $IP netns exec "$sw" tc qdisc show dev swp1 | grep -q clsact ||
		t_fail "$fail: a clsact was left on swp1"
done
echo "PASS: bpfhold_fallback"
