# tests/nxos/lib_nxos.sh: what tests/nxos/run.sh and tests/nxos/table.sh
# share (sourced after tests/integration/lib.sh and t_init; $tmp is the
# test's temporary directory): the rig a public configuration is pasted
# into, and the counts of a file.
#
#   sh_ns ARGS...   rocesh in the rig's namespace ($ns)
#   ports_of FILE   the Ethernet ports FILE names (tests/nxos/ports.py)
#   nlines FILE     its non-blank, non-comment lines
#   rig NAME FILE   a namespace NAME with a veth port swpN per interface
#                   FILE names (its NX-OS name as the alias in
#                   $tmp/roced.conf, the operator's one step), roced
#                   started on them (--caps probe) and answering rocesh;
#                   the namespace in $ns, the ports in $ports.
# shellcheck shell=sh
PY=${PYTHON:-python3}

sh_ns() { "$IP" netns exec "$ns" "$rocesh" "$@"; }

ports_of() { "$PY" "$top_srcdir/tests/nxos/ports.py" "$1"; }

nlines() { grep -cv '^[[:space:]]*\(!.*\)\{0,1\}$' "$1"; }

rig()
{
	t_netns_add ns "$1"
	ports=$(ports_of "$2")
	{
		echo 'interface = ('
		i=0
		for p in $ports; do
			i=$((i + 1))
			"$IP" -n "$ns" link add "swp$i" type veth peer name "h$i"
			"$IP" -n "$ns" link set "swp$i" up
			"$IP" -n "$ns" link set "h$i" up
			[ "$i" = 1 ] || echo ','
			printf '\t{ name = "swp%s"; alias = "%s"; }' "$i" "$p"
		done
		echo
		echo ');'
	} >"$tmp/roced.conf"
	t_roced_start "$ns" "$tmp/roced.conf" "started with" --caps probe
	for _ in $(seq 100); do
		sh_ns -c 'show running-config' >/dev/null 2>&1 && break
		sleep 0.05
	done
}
