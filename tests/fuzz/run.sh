#!/bin/sh
# Build the libFuzzer targets (tests/fuzz/fuzz_*.c) with clang, out of the
# autotools build, and run each for FUZZ_SECONDS (default 10) on a corpus
# seeded from the test fixtures. Fails on any crash, leak, sanitizer report
# or timeout and prints the input that caused it.
#
#   tests/fuzz/run.sh [TARGET...]       TARGET: tc_msg, conf, cmd, ...
#   FUZZ_SECONDS=120 tests/fuzz/run.sh  a longer run
#   FUZZ_BUILD=DIR                      where objects, corpora and crash
#                                       inputs go
set -eu

src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${FUZZ_BUILD:-${top_builddir:-/tmp}/tests/fuzz/build}
seconds=${FUZZ_SECONDS:-10}
CC=${FUZZ_CC:-clang}

if ! command -v "$CC" >/dev/null 2>&1; then
	echo "SKIP: $CC not installed (scripts/install-deps.sh --test)"
	exit 77
fi
. "$src/tests/integration/lib.sh"
t_init fuzz
probe=$t_tmp
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ return 0; }\n' \
	>"$probe/p.c"
if ! "$CC" -fsanitize=fuzzer "$probe/p.c" -o "$probe/p" 2>"$probe/err"; then
	echo "SKIP: $CC cannot link libFuzzer (libclang-rt-dev):"
	cat "$probe/err"
	exit 77
fi

pkgs="libconfig libmnl json-c"
# shellcheck disable=SC2086
PKG_CFLAGS=$(pkg-config --cflags $pkgs)
# shellcheck disable=SC2086
PKG_LIBS=$(pkg-config --libs $pkgs)
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
CFLAGS="-std=gnu11 -g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE $SAN
-Wno-gnu-variable-sized-type-not-at-end
-I$src/lib -I$src/daemon $PKG_CFLAGS"

mkdir -p "$build/obj" "$build/seeds" "$build/corpus" "$build/crashes"
# libconfig 1.5 itself leaks the scanner's buffer of a string left open
# at a syntax error (config_destroy does not free it): not roced's leak.
printf 'leak:libconfig.so\n' >"$build/lsan.supp"

# The code under test, instrumented for coverage. Rebuilt every run: the
# sources are few and a stale object would fuzz old code.
objs=""
for f in "$src"/lib/*/*.c; do
	o="$build/obj/$(basename "$(dirname "$f")")_$(basename "$f" .c).o"
	# shellcheck disable=SC2086
	$CC $CFLAGS -fsanitize=fuzzer-no-link -c "$f" -o "$o"
	objs="$objs $o"
done
rm -f "$build/libfuzzed.a"
# shellcheck disable=SC2086
ar cr "$build/libfuzzed.a" $objs

# --- seed corpora from the fixtures ---
# hex_lines FILE DIR: each non-comment line of a .hex fixture, as bytes.
hex_lines()
{
	SEED_DIR=$2 SEED_NAME=$(basename "$1" .hex) perl -ne '
		next if /^#/ || !/\S/; s/\s+//g;
		open(my $o, ">", sprintf("%s/%s-%03d", $ENV{SEED_DIR},
			$ENV{SEED_NAME}, $.)) or die; binmode $o;
		print $o pack("H*", $_); close $o;' <"$1"
}
# c_arrays FILE DIR: each "static const uint8_t NAME[] = { 0x.. };".
c_arrays()
{
	perl -e 'my ($f, $d) = @ARGV; local $/; open(my $i, "<", $f) or die;
		my $t = <$i>; $t =~ s{/\*.*?\*/}{}gs; $t =~ s{//[^\n]*}{}g;
		while ($t =~ /uint8_t\s+(\w+)\s*\[\s*\]\s*=\s*\{(.*?)\};/gs) {
			my ($n, $b) = ($1, $2);
			open(my $o, ">", "$d/$n") or die; binmode $o;
			print $o pack("C*", map { hex } ($b =~ /0x([0-9a-fA-F]+)/g));
			close $o; }' "$1" "$2"
}
seed()
{
	d="$build/seeds/$1"
	rm -rf "$d"
	mkdir -p "$d"
	case $1 in
	tc_msg | tc_stats)
		for f in "$src"/tests/fixtures/tc/*.hex; do hex_lines "$f" "$d"; done
		;;
	dcbnl_msg)
		for f in "$src"/tests/fixtures/dcb/*.hex; do hex_lines "$f" "$d"; done
		for f in "$src"/tests/fixtures/dcb/*.h; do c_arrays "$f" "$d"; done
		;;
	ethtool_msg)
		for f in "$src"/tests/fixtures/ethtool/*.h; do c_arrays "$f" "$d"; done
		;;
	lldp)
		for f in "$src"/tests/fixtures/lldp/*.hex; do hex_lines "$f" "$d"; done
		;;
	conf)
		for f in "$src"/conf/*.conf "$src"/tests/conf/*/*.conf; do
			cp "$f" "$d/$(basename "$(dirname "$f")")-$(basename "$f")"
		done
		;;
	cumulus)
		cp "$src"/tests/cumulus/*.conf "$d/"
		;;
	pfc_frame)
		c_arrays "$src/tests/unit/test_pfc_frame.c" "$d"
		;;
	pipe)
		# fuzz_pipe takes an input's first line: the transcripts'
		# show lines with filters.
		for f in "$src"/tests/cli/*.in; do
			grep '|' "$f" | split -l 1 - "$d/$(basename "$f")-"
		done
		;;
	cmd)
		# fuzz_cmd takes the first 2 lines of an input: the
		# transcripts and the reference, cut into pastes of 2 lines.
		for f in "$src"/tests/cli/*.in "$src"/conf/nxos-roce.txt; do
			split -l 2 "$f" "$d/$(basename "$f")-"
		done
		;;
	esac
}

# The CPU seconds (user + system) this shell's children have used, from
# FILE, where `times` wrote them (in this shell: a pipe or $(...) would
# run it in a subshell, whose children are not ours).
fuzz_cpu()
{
	tail -n 1 "$1" | awk '{ t = 0; for (i = 1; i <= 2; i++) {
		split($i, a, "m"); t += a[1] * 60 + a[2] + 0 } print t }'
}

# fuzz_replay TARGET DIR...: for a target fuzzed without the per-input
# leak check, every input of its corpus once more, with it (-runs=0: read
# the corpus, mutate nothing).
fuzz_replay()
{
	[ "$leaks" = 0 ] || return 0
	_t=$1
	shift
	echo "fuzz_$_t: its corpus replayed with the leak check per input"
	# shellcheck disable=SC2086
	t_run env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		LSAN_OPTIONS="suppressions=$build/lsan.supp" \
		"$build/fuzz_$_t" -runs=0 -timeout=10 -rss_limit_mb=2048 \
		$maxlen -detect_leaks=1 -artifact_prefix="$build/crashes/$_t-" \
		"$build/corpus/$_t" "$@" >>"$build/fuzz_$_t.log" 2>&1
}

targets=${*:-$(cd "$src/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')}
fail=0
for t in $targets; do
	# rocesh's own code a target needs besides lib/ (fuzz_pipe: the
	# output filters).
	extra=""
	[ "$t" = pipe ] && extra="-I$src/cli $src/cli/pipe.c"
	# shellcheck disable=SC2086
	$CC $CFLAGS -fsanitize=fuzzer "$src/tests/fuzz/fuzz_$t.c" $extra \
		"$build/libfuzzed.a" $PKG_LIBS -lm -o "$build/fuzz_$t"
	seed "$t"
	dirs="$build/seeds/$t"
	[ -d "$src/tests/fuzz/corpus/$t" ] && dirs="$dirs $src/tests/fuzz/corpus/$t"
	# New inputs go to a scratch corpus, never to the committed one.
	mkdir -p "$build/corpus/$t"
	rm -f "$build/crashes/$t"-*
	echo "fuzz_$t: ${seconds}s"
	# Inputs no longer than what the target reads (fuzz_cmd: 2 lines),
	# or than a configuration worth parsing: long ones only slow a run.
	# Leaks per input: libFuzzer runs a LeakSanitizer scan after every
	# input that leaves more allocations than it found. libconfig
	# leaks a string token the grammar rejects (`x = 1 "b"`: its
	# bison parser drops the token without freeing it), so a large
	# part of fuzz_conf's mutations made a scan (80 % of its time)
	# only to find the suppressed leak. fuzz_conf runs without the
	# per-input check (LeakSanitizer still runs at exit, over the whole
	# run) and its corpus is then replayed with it, which names any
	# input that leaks in roced's code.
	leaks=1
	case $t in
	cmd | pipe) maxlen="-max_len=512" ;;
	conf) maxlen="-max_len=2048" leaks=0 ;;
	*) maxlen="" ;;
	esac
	times >"$build/times0"
	# A waited-for child (t_run): a fuzzer runs for FUZZ_SECONDS, and
	# must stop with this script.
	# shellcheck disable=SC2086
	if ! t_run env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		LSAN_OPTIONS="suppressions=$build/lsan.supp" \
		"$build/fuzz_$t" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 $maxlen \
		-detect_leaks=$leaks -artifact_prefix="$build/crashes/$t-" \
		"$build/corpus/$t" $dirs >"$build/fuzz_$t.log" 2>&1 ||
		! fuzz_replay "$t" $dirs; then
		tail -n 60 "$build/fuzz_$t.log"
		for c in "$build/crashes/$t"-*; do
			[ -e "$c" ] && echo "FAIL: fuzz_$t crash input: $c"
		done
		fail=1
	else
		grep -E '^stat::(number_of_executed_units|new_units_added)' \
			"$build/fuzz_$t.log" | tr '\n' ' '
		echo
		# Executions per second of wall clock and of CPU (the
		# machine may be shared: the second says what the target
		# costs).
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz_$t.log")
		times >"$build/times1"
		awk -v t="$t" -v n="${execs:-0}" -v s="$seconds" \
			-v c0="$(fuzz_cpu "$build/times0")" \
			-v c1="$(fuzz_cpu "$build/times1")" 'BEGIN {
			c = c1 - c0; if (c <= 0) c = 0.01
			printf "fuzz_%s: %d executions, %.0f/s wall, %.0f per CPU second (%.1f CPU s), 0 crashes\n", t, n, n / s, n / c, c }'
	fi
done
exit $fail
