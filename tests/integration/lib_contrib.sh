# lib_contrib.sh: the rig of the contributor tests (pfc_contrib.sh,
# pfc_restart_contrib.sh), sourced after lib.sh: a switch namespace whose
# bridge br0 has a veth port swpN to each host namespace hN (10.79.0.N on
# ethN), and the switch's roced.conf with one congestible no-drop queue.
# Both tests are about where pause goes, so the watchdog is off.

# contrib_bridge TAG N: namespaces sw (named TAGsw) and h1..hN (TAGh1..),
# set as $sw and $h1..$hN, wired and up.
contrib_bridge() {
	_tag=$1
	t_netns_add sw "${_tag}sw"
	$IP -n "$sw" link add br0 type bridge
	$IP -n "$sw" link set br0 up
	for _h in $(seq "$2"); do
		t_netns_add "h$_h" "${_tag}h$_h"
		eval "_ns=\$h$_h"
		$IP -n "$sw" link add "swp$_h" type veth peer name "eth$_h" netns "$_ns"
		$IP -n "$sw" link set "swp$_h" master br0
		$IP -n "$sw" link set "swp$_h" up
		$IP -n "$_ns" addr add "10.79.0.$_h/24" dev "eth$_h"
		$IP -n "$_ns" link set "eth$_h" up
		$IP -n "$_ns" link set lo up
	done
}

# contrib_switch_conf FILE SHAPE_KBPS XOFF PORT...: the shipped file on
# PORTs, DSCP 26 alone classifying (untagged IP), queue 3 toward every
# port shaped to SHAPE_KBPS, priority 3's pause thresholds at XOFF (XON
# 20 kB under it), the watchdog off.
contrib_switch_conf() {
	_f=$1 _shape=$2 _xoff=$3
	shift 3
	t_conf_ports "$_f" "$@"
	t_conf_match_any "$_f"
	python3 - "$_f" "$_shape" "$_xoff" <<'PY'
import sys
p, shape, xoff = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = open(p).read()
reps = [
    ('name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50;',
     'name = "c-out-8q-q3";\n\t\t\t\t\tbandwidth-remaining-percent = 50; '
     'shape = { min = "1 kbps"; max = "%s kbps"; };' % shape),
    ('pause-pfc-cos = 3; mtu = 9216;',
     'pause-pfc-cos = 3; mtu = 9216; pause-buffer = { buffer-size = %d; '
     'pause-threshold = %d; resume-threshold = %d; };'
     % (2 * xoff, xoff, xoff - 20000)),
    ('watch-dog-interval = true;', 'watch-dog-interval = false;'),
]
for a, b in reps:
    assert a in s, 'the shipped roced.conf changed: ' + a
    s = s.replace(a, b, 1)
open(p, 'w').write(s)
PY
}
