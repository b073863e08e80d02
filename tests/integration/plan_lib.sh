# tests/integration/plan_lib.sh: does a port hold exactly roced's plan?
# Sourced after lib.sh (it uses t_netns_add, t_fail and $t_tmp):
#   . "$top_srcdir/tests/integration/plan_lib.sh"
#
# Why a twin: the plan (`roced --dry-run`) is lines that tc and ip accept
# verbatim, so the reference state of a port is what tc itself builds from
# them on a fresh veth port of a namespace of our own. A port that roced
# programmed must then equal its twin in every qdisc (tc -j -d), htb class
# (tc -d class show: iproute2 6.1 prints them as text even with -j) and
# filter (tc -j at each parent the plan adds filters to), hold as many of
# each as the plan has lines for, and carry the plan's MTU. This is the
# check demo_rig.sh made first; the chaos and systemd tests need it too.
#
#   tp_plan CONF PORT...     the plan of CONF (--caps probe, as the daemon)
#                            replayed onto twins of PORT...; fails the test
#                            when tc refuses it or the twin does not hold
#                            what the plan counts
#   tp_plan_daemon CONF PORT...  the twins as a fresh roced daemon
#                            programs them (see there: the daemon's plan
#                            is not the dry run's)
#   tp_port_state NS PORT    PORT's state in NS, normalised, on stdout
#   tp_check NS PORT...      prints "PORT" for each port of NS that is not
#                            its twin (diff in $t_tmp/tp.diff.PORT)
#   tp_summary PORT          "qdisc N class N filter N, mtu N" of the plan
# The files live in $t_tmp/tp.*.

# tp_port_state NS PORT: one object per line in an order that does not
# depend on the dump's, then the counts and the MTU.
tp_port_state()
{
	_tp_d="$t_tmp/tp.s"
	"$IP" netns exec "$1" "$TC" -j -d qdisc show dev "$2" >"$_tp_d.qdisc" &&
		"$IP" netns exec "$1" "$TC" -d class show dev "$2" >"$_tp_d.class" &&
		"$IP" -n "$1" -j link show dev "$2" >"$_tp_d.link" || {
		echo "tp_port_state: cannot read $2 in $1" >&2
		return 1
	}
	: >"$_tp_d.filter"
	while read -r _tp_parent; do
		# shellcheck disable=SC2086 # "parent X" or "ingress"
		"$IP" netns exec "$1" "$TC" -j filter show dev "$2" $_tp_parent |
			python3 -c 'import json, sys; [print(sys.argv[1], json.dumps(f, sort_keys=True)) for f in json.load(sys.stdin)]' \
				"$_tp_parent" >>"$_tp_d.filter" || {
			echo "tp_port_state: cannot read the filters of $2 in $1 at $_tp_parent" >&2
			return 1
		}
	done <"$t_tmp/tp.parents.$2"
	python3 - "$_tp_d" <<'PY'
import json, re, sys
d = sys.argv[1] + '.'
qdiscs = json.load(open(d + 'qdisc'))
for q in qdiscs:
    q.pop('refcnt', None)  # the kernel's reference count, not the plan's
    # htb's count of packets sent before its default class existed: a
    # counter (an IPv6 router solicitation at link-up), not state.
    q.get('options', {}).pop('direct_packets_stat', None)
# A tbf leaf (software PFC's no-drop queue) has a class of its own that
# the kernel makes with it: not a line of the plan.
classes = [l.rstrip() for l in open(d + 'class')
           if l.strip() and not l.startswith('class tbf ')]
filters = []
for l in open(d + 'filter'):
    if not l.strip():
        continue
    at, f = l[:l.index('{')].strip(), json.loads(l[l.index('{'):])
    o = f.get('options', {})
    # u32's hash table ids (800:, 801:, ...) are the kernel's choice, in
    # the order of the device's history, not the plan's.
    if f.get('kind') == 'u32':
        if 'fh' in o:
            o['fh'] = re.sub(r'^[0-9a-f]+:', 'HT:', o['fh'])
        if 'key_ht' in o:
            o['key_ht'] = 'HT'
    filters.append((at, f))
for l in sorted(json.dumps(q, sort_keys=True) for q in qdiscs):
    print('qdisc', l)
for l in sorted(classes):
    print(l)
for l in sorted('%s %s' % (at, json.dumps(f, sort_keys=True)) for at, f in filters):
    print('filter', l)
# A filter is one dump entry with options that are not a u32 hash table
# (u32 adds a bare entry per priority and one per table).
rules = [f for at, f in filters if 'options' in f and 'ht_divisor' not in f['options']]
print('count qdisc', len(qdiscs), 'class', len(classes), 'filter', len(rules))
print('mtu', json.load(open(d + 'link'))[0]['mtu'])
PY
}

# _tp_plan_counts PORT: the counts and MTU as the plan's lines give them.
_tp_plan_counts()
{
	printf 'count qdisc %s class %s filter %s\n' \
		"$(grep -c "^qdisc add dev $1 " "$t_tmp/tp.plan" || true)" \
		"$(grep -c "^class add dev $1 " "$t_tmp/tp.plan" || true)" \
		"$(grep -c "^filter add dev $1 " "$t_tmp/tp.plan" || true)"
	printf 'mtu %s\n' "$(sed -n "s/^#ip link set dev $1 mtu \([0-9]*\)$/\1/p" "$t_tmp/tp.plan")"
}

tp_summary()
{
	sed -n 's/^count //p' "$t_tmp/tp.want.$1" | tr '\n' ' '
	sed -n 's/^mtu \(.*\)/mtu \1/p' "$t_tmp/tp.want.$1"
}

tp_plan()
{
	_tp_conf=$1
	shift
	"$roced" --dry-run --caps probe -f "$_tp_conf" >"$t_tmp/tp.plan" 2>"$t_tmp/tp.plan.err" ||
		t_fail "roced --dry-run -f $_tp_conf: $(cat "$t_tmp/tp.plan.err")"
	t_netns_add _tp_ref planref || t_fail "cannot create the replay namespace"
	_tp_i=0
	for _tp_p in "$@"; do
		_tp_i=$((_tp_i + 1))
		"$IP" -n "$_tp_ref" link add "$_tp_p" type veth peer name "tp-peer$_tp_i" ||
			t_fail "cannot create the twin of $_tp_p"
		sed -n "s/^filter add dev $_tp_p \(parent [0-9a-f:]*\|ingress\|egress\) .*/\1/p" \
			"$t_tmp/tp.plan" | sort -u >"$t_tmp/tp.parents.$_tp_p"
	done
	# Only the ports asked for: the plan may name others.
	_tp_re=$(printf '%s\n' "$@" | sed 's/.*/dev &/' | paste -sd'|' | sed 's/|/ |/g')
	grep -E "^[a-z]+ [a-z]+ ($_tp_re )" "$t_tmp/tp.plan" >"$t_tmp/tp.batch" || true
	"$IP" netns exec "$_tp_ref" "$TC" -batch "$t_tmp/tp.batch" >"$t_tmp/tp.out" 2>&1 ||
		t_fail "tc -batch refused the plan: $(cat "$t_tmp/tp.out")"
	for _tp_p in "$@"; do
		sed -n "s/^#ip \(link set dev $_tp_p mtu .*\)/\1/p" "$t_tmp/tp.plan"
	done >"$t_tmp/tp.ip"
	if [ -s "$t_tmp/tp.ip" ]; then
		"$IP" -n "$_tp_ref" -batch "$t_tmp/tp.ip" >"$t_tmp/tp.out" 2>&1 ||
			t_fail "ip -batch refused the plan's #ip lines: $(cat "$t_tmp/tp.out")"
	fi
	for _tp_p in "$@"; do
		tp_port_state "$_tp_ref" "$_tp_p" >"$t_tmp/tp.want.$_tp_p" ||
			t_fail "cannot read the twin of $_tp_p"
		# Not an empty match: the twin holds what the plan counts.
		[ "$(tail -n 2 "$t_tmp/tp.want.$_tp_p")" = "$(_tp_plan_counts "$_tp_p")" ] ||
			t_fail "the replay of the plan on $_tp_p does not hold the plan's objects:" \
				"$(tail -n 2 "$t_tmp/tp.want.$_tp_p") vs $(_tp_plan_counts "$_tp_p")"
		grep -q '^count qdisc [1-9][0-9]* class [1-9][0-9]* filter [1-9]' "$t_tmp/tp.want.$_tp_p" ||
			t_fail "the plan has no qdiscs, classes or filters for $_tp_p"
	done
	t_netns_del "$_tp_ref"
}

# tp_plan_daemon CONF PORT...: the twins are programmed by a fresh roced
# daemon of their own on CONF, which is then stopped (SIGTERM leaves the
# kernel state in place). Why: the daemon's plan is not the dry run's
# where it runs software PFC (each no-drop queue's leaf is a tbf it can
# hold, roced(8)), so a daemon's ports are compared with what a daemon
# that met no fault makes of the same file. The dry run's replay by tc is
# checked on its own (dryrun_tc_batch.sh).
tp_plan_daemon()
{
	_tp_conf=$1
	shift
	"$roced" --dry-run --caps probe -f "$_tp_conf" >"$t_tmp/tp.plan" 2>"$t_tmp/tp.plan.err" ||
		t_fail "roced --dry-run -f $_tp_conf: $(cat "$t_tmp/tp.plan.err")"
	t_netns_add _tp_ref planref || t_fail "cannot create the twin namespace"
	"$IP" -n "$_tp_ref" link set lo up
	_tp_i=0
	for _tp_p in "$@"; do
		_tp_i=$((_tp_i + 1))
		"$IP" -n "$_tp_ref" link add "$_tp_p" type veth peer name "tp-peer$_tp_i" ||
			t_fail "cannot create the twin of $_tp_p"
		sed -n "s/^filter add dev $_tp_p \(parent [0-9a-f:]*\|ingress\|egress\) .*/\1/p" \
			"$t_tmp/tp.plan" | sort -u >"$t_tmp/tp.parents.$_tp_p"
	done
	t_show_on_fail "the twins' roced" "$t_tmp/tp.ref.log"
	t_spawn "$IP" netns exec "$_tp_ref" "$roced" -f "$_tp_conf" --caps probe \
		>"$t_tmp/tp.ref.log" 2>&1
	_tp_pid=$t_pid
	_tp_i=0
	until grep -q 'mirroring' "$t_tmp/tp.ref.log"; do
		_t_alive "$_tp_pid" || t_fail "the twins' roced exited"
		_tp_i=$((_tp_i + 1))
		[ "$_tp_i" -lt 1200 ] || t_fail "the twins' roced did not program them within 60 s"
		sleep 0.05
	done
	t_stop "$_tp_pid" TERM || t_fail "the twins' roced exited with an error"
	for _tp_p in "$@"; do
		tp_port_state "$_tp_ref" "$_tp_p" >"$t_tmp/tp.want.$_tp_p" ||
			t_fail "cannot read the twin of $_tp_p"
		grep -q '^count qdisc [1-9][0-9]* class [1-9][0-9]* filter [1-9]' "$t_tmp/tp.want.$_tp_p" ||
			t_fail "the twins' roced put no qdiscs, classes or filters on $_tp_p"
		# What the daemon adds to the dry run is its leaves alone.
		[ "$(sed -n 's/^count qdisc \([0-9]*\) .* filter \([0-9]*\)$/\1 \2/p' "$t_tmp/tp.want.$_tp_p")" = \
			"$(_tp_plan_counts "$_tp_p" | sed -n 's/^count qdisc \([0-9]*\) .* filter \([0-9]*\)$/\1 \2/p')" ] ||
			t_fail "the twins' roced put on $_tp_p other numbers of qdiscs or filters than its plan has"
	done
	t_netns_del "$_tp_ref"
}

tp_check()
{
	_tp_ns=$1
	shift
	for _tp_p in "$@"; do
		if ! tp_port_state "$_tp_ns" "$_tp_p" >"$t_tmp/tp.got.$_tp_p" 2>"$t_tmp/tp.diff.$_tp_p" ||
			! diff -u "$t_tmp/tp.want.$_tp_p" "$t_tmp/tp.got.$_tp_p" >"$t_tmp/tp.diff.$_tp_p"; then
			echo "$_tp_p"
		fi
	done
}
