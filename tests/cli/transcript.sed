# Normalisation of a transcript's output before it is compared with its
# .out (tests/cli/run_transcripts.sh). Only what legitimately differs from
# one run to the next may be rewritten here, each rule with its reason;
# everything else must match byte for byte.
#
# The rules:
#   - show lldp dcbx says how long ago DCBX last changed, in seconds
#     since roced started on the rig: a time.
s/^\(  DCBX: IEEE 802.1Qaz, TLVs [^,]*, last change \)[0-9]* s ago$/\1N s ago/
s/^\( *"last-change": \)[0-9]*,$/\1N,/
#   - show version names the build (its version from git describe,
#     its git commit and compiler), the sanitizers of a test build, the
#     kernel's release, its uptime and roced's: they differ between
#     builds, machines and runs.
s/^\(  roced: version \)[^ ]*\( \[build [^]]*\]\)*$/\1V [build B]/
s/^\(  "version": \)"[^"]*",$/\1"V",/
s/^\(  compiler: \).*$/\1CC/
s/^\(  sanitizers: \).*$/\1S/
s/^\(  Linux \)[^ ]* [^ ]*$/\1RELEASE MACHINE/
s/^\(Kernel uptime is \).*$/\1T/
s/^\(roced uptime is \).*$/\1T/
#   - show interface counters: what went out of swp1 includes roced's
#     own LLDP frames, as many as the session's timing lets go, which
#     carry the machine's host name.
/^Port  *OutOctets  *OutUcastPkts$/,/^Eth1\/1 /s/^\(Eth1\/1  *\)[0-9][0-9]*\(  *--\)$/\1N\2/
s/^\( *"out-octets": \)[0-9]*,$/\1N,/
s/^\( *"out-packets": \)[0-9]*,$/\1N,/
#   - show checkpoint summary says when each checkpoint was taken, and
#     show configuration session when a session began and which rocesh
#     (its pid) began it: a time and a pid.
s/^\(Created at \).*$/\1T/
s/^\(config session [^ ]*: [0-9]* lines\?, began \).* by pid [0-9]*/\1T by pid P/
s/^\( *"\(created\|began\|pid\)": \)[0-9]*,$/\1N,/
#   - a confirmed commit says when it rolls back and in how many
#     seconds: a time of day, and seconds that tick while it runs.
s/\([Rr]olls\{0,1\} back at \)[A-Z][a-z][a-z], [0-9:]* [0-9]* [A-Z][a-z]* [0-9]* UTC\( (in [0-9]* s)\)\{0,1\}/\1T/g
# Otherwise nothing needs a rule:
#   - counters are exact: the rig is quiet (IPv6 off, no addresses, so the
#     kernel sends nothing on swp1) and the only traffic is the runner's
#     #@send frames, of one size, sent before rocesh starts; the queues
#     have drained by then (veth transmits synchronously), so depths are 0
#     and nothing is over its rate;
#   - no other show these transcripts use prints a time, an uptime or a
#     pid;
#   - roced runs with --caps host, so the plan, its warnings and the
#     layout do not depend on the machine's kernel;
#   - the configuration file's path (a temporary one) is never printed.
# A rewrite that is not needed would only hide a wrong answer. When a
# transcript gains a show that prints such a value, add the narrowest
# rule that matches it, e.g. for a time of day:
#   s/^\(Last change *: \)[0-9:]*$/\1HH:MM:SS/
# LLDP's fast start sends a frame a second after a port comes up, so how
# many it has sent when the transcript asks depends on how long the
# transcript took to get there (1 on an idle machine, 2-4 under load).
s/^\(Total frames transmitted: \)[1-9][0-9]*$/\1N/
# The PFC deadlock node ID is the lowest MAC of the node's LLDP ports,
# which the kernel draws at random for each veth.
s/^\( *"node-id": \)"[0-9a-f:]*",$/\1"ID",/
