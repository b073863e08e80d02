#!/bin/bash
# capture-dcb-fixtures.sh: record the dcbnl requests that iproute2's `dcb`
# sends, as hex, into tests/fixtures/dcb/*.hex. test_dcbnl_msg compares
# roced's encoder with these bytes.
#
# Usage: tests/tools/capture-dcb-fixtures.sh [OUTDIR]     (as root)
#
# How: `dcb` runs under strace in a scratch network namespace, against a
# veth named dcbfx0 (the name is part of every request, so it is fixed).
# veth has no dcbnl, so the kernel answers every request with EOPNOTSUPP.
# That is enough for the commands that send one request (app add/del,
# dcbx set), but `dcb pfc/ets/maxrate/buffer set` read-modify-write: they
# GET the current struct first and stop when the GET fails. To see what
# they SET, a small LD_PRELOAD shim (built below) lets every request reach
# the kernel untouched - strace records exactly those bytes - and then
# replaces the kernel's error answer with a made-up dcbnl_ieee_fill reply
# (the "current state" documented in the shim) and a success ACK. The
# shim only changes what dcb reads; the recorded requests are dcb's own.
#
# Output format: "#" comment lines (the command, the tool versions), then
# one line of lowercase hex per netlink message, in the order dcb sent
# them. nlmsg_seq is dcb's (the time of day); tests ignore it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../fixtures/dcb}
dev=dcbfx0
ns=roced-dcbcap-$$

for tool in strace dcb ip cc; do
	command -v "$tool" >/dev/null || {
		echo "capture-dcb-fixtures: $tool not found" >&2
		exit 1
	}
done
[ "$(id -u)" = 0 ] || {
	echo "capture-dcb-fixtures: needs root (network namespaces)" >&2
	exit 1
}

tmp=$(mktemp -d)
cleanup() {
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

cat >"$tmp/dcbfake.c" <<'EOF'
/* LD_PRELOAD shim for capture-dcb-fixtures.sh: answer dcbnl requests as a
 * DCB-capable port would, after the real request went to the kernel. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

static unsigned char reply[8192];
static size_t reply_len;

static void *fake_put(size_t *off, const void *data, size_t len)
{
	void *p = reply + *off;

	memset(p, 0, NLMSG_ALIGN(len));
	if (data)
		memcpy(p, data, len);
	*off += NLMSG_ALIGN(len);
	return p;
}

static void fake_attr(size_t *off, uint16_t type, const void *data,
		      size_t len)
{
	struct nlattr nla = { .nla_len = NLA_HDRLEN + len, .nla_type = type };

	fake_put(off, &nla, sizeof(nla));
	fake_put(off, data, len);
}

/* The kernel's nests in dcbnl_ieee_fill carry no NLA_F_NESTED flag. */
static size_t fake_nest_start(size_t *off, uint16_t type)
{
	size_t at = *off;

	fake_attr(off, type, NULL, 0);
	return at;
}

static void fake_nest_end(size_t off, size_t at)
{
	((struct nlattr *)(reply + at))->nla_len = off - at;
}

/* The made-up current state of dcbfx0. Non-zero where a read-modify-write
 * must carry a field through, so that the capture shows it. */
static void fake_ieee_fill(size_t *off, const char *ifname)
{
	struct ieee_ets ets = {
		.willing = 1,
		.ets_cap = 8,
		.tc_tx_bw = { 13, 13, 13, 13, 12, 12, 12, 12 },
		.tc_rx_bw = { 13, 13, 13, 13, 12, 12, 12, 12 },
		.tc_tsa = { 2, 2, 2, 2, 2, 2, 2, 2 },
		.prio_tc = { 1, 0, 2, 3, 4, 5, 6, 7 },
	};
	struct ieee_maxrate maxrate = { .tc_maxrate = { [7] = 1000000 } };
	struct ieee_pfc pfc = {
		.pfc_cap = 8,
		.pfc_en = 0x10,
		.mbc = 0,
		.delay = 32,
		.requests = { 0, 0, 0, 1000, 7 },
		.indications = { 0, 0, 0, 2000, 9 },
	};
	struct dcbnl_buffer buffer = {
		.prio2buffer = { 0, 0, 0, 0, 0, 0, 0, 0 },
		.buffer_size = { 262144, 0, 0, 0, 0, 0, 0, 0 },
		.total_size = 524288,
	};
	struct dcb_app apps[] = {
		{ .selector = 5, .priority = 0, .protocol = 26 },
		{ .selector = 5, .priority = 6, .protocol = 48 },
	};
	uint8_t dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	size_t ieee, app, i;

	fake_attr(off, DCB_ATTR_IFNAME, ifname, strlen(ifname) + 1);
	ieee = fake_nest_start(off, DCB_ATTR_IEEE);
	fake_attr(off, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
	fake_attr(off, DCB_ATTR_IEEE_MAXRATE, &maxrate, sizeof(maxrate));
	fake_attr(off, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
	fake_attr(off, DCB_ATTR_DCB_BUFFER, &buffer, sizeof(buffer));
	app = fake_nest_start(off, DCB_ATTR_IEEE_APP_TABLE);
	for (i = 0; i < sizeof(apps) / sizeof(apps[0]); i++)
		fake_attr(off, DCB_ATTR_IEEE_APP, &apps[i], sizeof(apps[i]));
	fake_nest_end(*off, app);
	fake_nest_end(*off, ieee);
	fake_attr(off, DCB_ATTR_DCBX, &dcbx, 1);
}

static void fake_answer(const struct nlmsghdr *req)
{
	const struct dcbmsg *rd = NLMSG_DATA(req);
	const struct nlattr *name = (const void *)((const char *)rd +
						   NLMSG_ALIGN(sizeof(*rd)));
	struct nlmsghdr *nlh;
	struct nlmsgerr *err;
	struct dcbmsg *d;
	uint8_t zero = 0, dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	size_t off = 0;

	nlh = fake_put(&off, NULL, NLMSG_HDRLEN);
	nlh->nlmsg_type = req->nlmsg_type;
	nlh->nlmsg_seq = req->nlmsg_seq;
	d = fake_put(&off, NULL, sizeof(*d));
	d->cmd = rd->cmd;
	switch (rd->cmd) {
	case DCB_CMD_IEEE_GET:
		fake_ieee_fill(&off, (const char *)name + NLA_HDRLEN);
		break;
	case DCB_CMD_IEEE_SET:
	case DCB_CMD_IEEE_DEL:
		fake_attr(&off, DCB_ATTR_IEEE, &zero, 1);
		break;
	case DCB_CMD_GDCBX:
	case DCB_CMD_SDCBX:
		fake_attr(&off, DCB_ATTR_DCBX,
			  rd->cmd == DCB_CMD_GDCBX ? &dcbx : &zero, 1);
		break;
	}
	nlh->nlmsg_len = off;

	nlh = fake_put(&off, NULL, NLMSG_HDRLEN);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	nlh->nlmsg_seq = req->nlmsg_seq;
	err = fake_put(&off, NULL, sizeof(*err));
	err->msg = *req;
	nlh->nlmsg_len = NLMSG_HDRLEN + sizeof(*err);
	reply_len = off;
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags,
	       const struct sockaddr *to, socklen_t tolen)
{
	ssize_t (*real)(int, const void *, size_t, int,
			const struct sockaddr *, socklen_t) =
		dlsym(RTLD_NEXT, "sendto");
	const struct nlmsghdr *nlh = buf;
	ssize_t ret = real(fd, buf, len, flags, to, tolen);

	if (ret >= 0 && len >= NLMSG_HDRLEN + sizeof(struct dcbmsg) +
				       NLA_HDRLEN &&
	    (nlh->nlmsg_type == RTM_GETDCB || nlh->nlmsg_type == RTM_SETDCB))
		fake_answer(nlh);
	return ret;
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t (*real)(int, struct msghdr *, int) =
		dlsym(RTLD_NEXT, "recvmsg");
	unsigned char drain[8192];
	struct iovec iov = { drain, sizeof(drain) };
	struct msghdr dm = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct sockaddr_nl *sa = msg->msg_name;
	size_t n = reply_len;

	if (!n)
		return real(fd, msg, flags);
	/* Swallow the kernel's EOPNOTSUPP so the socket stays in step. */
	real(fd, &dm, MSG_DONTWAIT);
	if (msg->msg_iovlen < 1 || msg->msg_iov[0].iov_len < n)
		return real(fd, msg, flags);
	memcpy(msg->msg_iov[0].iov_base, reply, n);
	if (sa && msg->msg_namelen >= sizeof(*sa)) {
		memset(sa, 0, sizeof(*sa));
		sa->nl_family = AF_NETLINK;
		msg->msg_namelen = sizeof(*sa);
	}
	msg->msg_flags = 0;
	reply_len = 0;
	return n;
}
EOF
cc -O1 -Wall -shared -fPIC -o "$tmp/dcbfake.so" "$tmp/dcbfake.c" -ldl

ip netns add "$ns"
ip -n "$ns" link add "$dev" type veth peer name dcbfx1

ver_dcb=$(dcb -V 2>&1 | head -1)
ver_strace=$(strace -V 2>&1 | head -1)
mkdir -p "$out"

# capture NAME DCB-ARGS...: run dcb, keep the hex of every sendto.
capture() {
	local name=$1 log=$tmp/$1.log
	shift
	ip netns exec "$ns" strace -f -qq -e trace=sendto -e write=all \
		-E LD_PRELOAD="$tmp/dcbfake.so" -o "$log" dcb "$@" \
		>/dev/null 2>"$tmp/$name.err" || {
		echo "capture-dcb-fixtures: dcb $* failed:" >&2
		cat "$tmp/$name.err" >&2
		exit 1
	}
	{
		echo "# dcb $*"
		echo "# $ver_dcb; $ver_strace; kernel answers faked by the"
		echo "# LD_PRELOAD shim in tests/tools/capture-dcb-fixtures.sh"
		# strace's dump: " | OFFSET  16 hex bytes  ascii |"; the
		# bytes sit in columns 11-59; offset 00000 starts a message.
		awk '
			/^ \| [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]  / {
				line = substr($0, 4)
				off = substr(line, 1, 5)
				hex = substr(line, 8, 49)
				gsub(/ /, "", hex)
				if (off == "00000" && msg != "") {
					print msg
					msg = ""
				}
				msg = msg hex
			}
			END { if (msg != "") print msg }
		' "$log"
	} >"$out/$name.hex"
	n=$(grep -vc '^#' "$out/$name.hex" || true)
	[ "$n" -gt 0 ] || {
		echo "capture-dcb-fixtures: no message seen for dcb $*" >&2
		exit 1
	}
	echo "captured $name: $n message(s)"
}

capture pfc_set pfc set dev "$dev" prio-pfc all:off 3:on
capture pfc_set_delay pfc set dev "$dev" prio-pfc 3:on delay 4096
capture ets_set ets set dev "$dev" tc-tsa all:ets tc-bw 0:50 1:0 2:0 3:50 \
	4:0 5:0 6:0 7:0 prio-tc all:0 3:3
capture maxrate_set maxrate set dev "$dev" tc-maxrate 3:10Gbit
capture buffer_set buffer set dev "$dev" prio-buffer all:0 3:1
capture app_add app add dev "$dev" dscp-prio 26:3 48:6
capture app_del app del dev "$dev" dscp-prio 26:3 48:6
capture app_add_ethtype app add dev "$dev" ethtype-prio 0x8915:3
capture app_replace app replace dev "$dev" dscp-prio 26:3
capture dcbx_set dcbx set dev "$dev" host ieee
capture ieee_get pfc show dev "$dev"
