/* lldp_pcap: write a pcap of the LLDP frames roced's encoder
 * (lib/proto/lldp.c) produces, for an independent decoder (tshark) to
 * check; tests/integration/lldp_tshark.sh is its user.
 *
 *   lldp_pcap FILE            the frames below, one per configuration
 *   lldp_pcap -x HEX FILE     one frame around the LLDPDU given in hex
 *                             (the hand-built fixtures, to see whether
 *                             Wireshark reads them as we do)
 *
 * Frames (source MAC = chassis ID, to 01:80:c2:00:00:0e, padded to 60):
 *   1 switch: not willing; PFC on priority 3 (cap 8); ETS configuration
 *     and recommendation 50/50 between TC 0 and TC 3 (priority 3 ->
 *     TC 3, the others TC 0; ETS on TC 0 and 3, strict elsewhere); APP
 *     DSCP 26 -> 3 and UDP 4791 -> 3; system name, description,
 *     capabilities (bridge, router) and an IPv4 management address
 *   2 host: willing ETS and PFC, PFC off, ETS all in TC 0, no APP
 *   3 the switch's shutdown LLDPDU (TTL 0)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/lldp.h"

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f); /* pcap: the writer's byte order */
}

static void put16(FILE *f, uint16_t v)
{
	fwrite(&v, 2, 1, f);
}

static void frame(FILE *f, const uint8_t src[6], const uint8_t *pdu, size_t n)
{
	static const uint8_t dst[6] = LLDP_MAC_NEAREST_BRIDGE;
	uint8_t b[14 + LLDP_PDU_MAX];
	size_t len = 14 + n;

	memset(b, 0, sizeof(b));
	memcpy(b, dst, 6);
	memcpy(b + 6, src, 6);
	b[12] = LLDP_ETHERTYPE >> 8;
	b[13] = LLDP_ETHERTYPE & 0xff;
	memcpy(b + 14, pdu, n);
	if (len < 60)
		len = 60;
	put32(f, 0);             /* seconds */
	put32(f, 0);             /* microseconds */
	put32(f, (uint32_t)len); /* captured */
	put32(f, (uint32_t)len); /* on the wire */
	fwrite(b, 1, len, f);
}

static void pcap_header(FILE *f)
{
	put32(f, 0xa1b2c3d4);
	put16(f, 2);
	put16(f, 4);
	put32(f, 0);
	put32(f, 0);
	put32(f, 65535);
	put32(f, 1); /* Ethernet */
}

static void id(struct lldp_id *i, uint8_t subtype, const void *v, size_t n)
{
	i->subtype = subtype;
	i->len = (uint8_t)n;
	memcpy(i->v, v, n);
}

static void encode_frame(FILE *f, const struct lldp_pdu *p)
{
	uint8_t b[LLDP_PDU_MAX];
	int n = lldp_encode(p, b, sizeof(b));

	if (n < 0) {
		fprintf(stderr, "lldp_pcap: encode: %s\n", strerror(-n));
		exit(1);
	}
	frame(f, p->chassis.v, b, (size_t)n);
}

static int from_hex(const char *hex, const char *path)
{
	static const uint8_t src[6] = {0x02, 0, 0, 0, 0, 0x02};
	uint8_t b[LLDP_PDU_MAX];
	size_t n = 0;
	unsigned v;
	FILE *f;

	while (hex[0] && hex[1] && n < sizeof(b) &&
	       sscanf(hex, "%2x", &v) == 1) {
		b[n++] = (uint8_t)v;
		hex += 2;
	}
	if (*hex) {
		fprintf(stderr, "lldp_pcap: bad hex at '%.8s'\n", hex);
		return 2;
	}
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		return 1;
	}
	pcap_header(f);
	frame(f, src, b, n);
	return fclose(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const uint8_t sw_mac[6] = {0x02, 0, 0, 0, 0, 0x01};
	static const uint8_t host_mac[6] = {0x02, 0, 0, 0, 0, 0x02};
	static struct lldp_pdu sw, host;
	const struct dcbx_ets ets = {
	    .max_tcs = 8,
	    .prio_tc = {0, 0, 0, 3, 0, 0, 0, 0},
	    .tc_bw = {50, 0, 0, 50, 0, 0, 0, 0},
	    .tsa = {DCBX_TSA_ETS, DCBX_TSA_STRICT, DCBX_TSA_STRICT,
	            DCBX_TSA_ETS, DCBX_TSA_STRICT, DCBX_TSA_STRICT,
	            DCBX_TSA_STRICT, DCBX_TSA_STRICT},
	};
	FILE *f;

	if (argc == 4 && strcmp(argv[1], "-x") == 0)
		return from_hex(argv[2], argv[3]);
	if (argc != 2) {
		fprintf(stderr, "usage: lldp_pcap [-x HEX] FILE\n");
		return 2;
	}

	id(&sw.chassis, LLDP_CHASSIS_MAC, sw_mac, 6);
	id(&sw.port, LLDP_PORT_IFNAME, "swp1", 4);
	sw.ttl = 121;
	snprintf(sw.port_desc, sizeof(sw.port_desc), "to host");
	snprintf(sw.sys_name, sizeof(sw.sys_name), "roced-switch");
	snprintf(sw.sys_desc, sizeof(sw.sys_desc), "roced RoCEv2 switch");
	sw.has_caps = true;
	sw.caps_sys = sw.caps_enabled = 0x14; /* bridge, router */
	sw.has_mgmt = true;
	sw.mgmt_subtype = 1;
	sw.mgmt_len = 4;
	memcpy(sw.mgmt, "\xc0\x00\x02\x01", 4); /* 192.0.2.1 */
	sw.mgmt_if_subtype = 2;
	sw.mgmt_ifnum = 3;
	sw.dcbx.has_ets_cfg = sw.dcbx.has_ets_rec = true;
	sw.dcbx.ets_cfg = ets;
	sw.dcbx.ets_rec = ets;
	sw.dcbx.has_pfc = true;
	sw.dcbx.pfc = (struct dcbx_pfc){.cap = 8, .enable = 1u << 3};
	sw.dcbx.has_app = true;
	sw.dcbx.app.n = 2;
	sw.dcbx.app.v[0] = (struct dcbx_app){3, DCBX_APP_DSCP, 26};
	sw.dcbx.app.v[1] = (struct dcbx_app){3, DCBX_APP_UDP, 4791};

	id(&host.chassis, LLDP_CHASSIS_MAC, host_mac, 6);
	id(&host.port, LLDP_PORT_IFNAME, "eth0", 4);
	host.ttl = 121;
	host.dcbx.has_ets_cfg = true;
	host.dcbx.ets_cfg = (struct dcbx_ets){
	    .willing = true, .max_tcs = 8, .tc_bw = {100}, .tsa = {2}};
	host.dcbx.has_pfc = true;
	host.dcbx.pfc = (struct dcbx_pfc){.willing = true, .cap = 8};

	f = fopen(argv[1], "wb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	pcap_header(f);
	encode_frame(f, &sw);
	encode_frame(f, &host);
	/* A shutdown LLDPDU holds the mandatory TLVs only (802.1AB 9.2.5.4). */
	memset(&host, 0, sizeof(host));
	host.chassis = sw.chassis;
	host.port = sw.port;
	encode_frame(f, &host);
	return fclose(f) ? 1 : 0;
}
