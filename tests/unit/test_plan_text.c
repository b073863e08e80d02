/* test_plan_text: hand-built plans -> the exact iproute2 text.
 *
 * The plans here are written by hand (not by compile) so that the text
 * writer is tested on its own: each layout, the DCB lines, warnings, the
 * software/hardware comments, and the numbers that tc parses in a base or
 * unit of its own (hex handles, bit rates, RED probability).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/compile.h"
#include "model/plan.h"
#include "plan/plan_text.h"

#define ETH_IP    0x0800
#define ETH_IPV6  0x86dd
#define ETH_8021Q 0x8100

#define ROOT    PLAN_H_MAKE(PLAN_ROOT_MAJOR, 0)
#define CL(m)   PLAN_H_MAKE(PLAN_ROOT_MAJOR, (m))
#define LEAF(q) PLAN_H_MAKE(PLAN_LEAF_MAJOR(q), 0)

static struct plan_qdisc *add_qdisc(struct plan_port *pp,
                                    enum plan_qdisc_kind kind, uint32_t handle,
                                    uint32_t parent, int queue)
{
	struct plan_qdisc *q = plan_port_add_qdisc(pp);

	assert_non_null(q);
	q->kind = kind;
	q->handle = handle;
	q->parent = parent;
	q->queue = queue;
	return q;
}

static void add_class(struct plan_port *pp, uint32_t classid, uint32_t parent,
                      uint64_t rate, uint64_t ceil, uint32_t prio, int queue)
{
	struct plan_class *k = plan_port_add_class(pp);

	assert_non_null(k);
	k->classid = classid;
	k->parent = parent;
	k->rate = rate;
	k->ceil = ceil;
	k->prio = prio;
	k->queue = queue;
}

static struct plan_filter *add_filter(struct plan_port *pp,
                                      enum plan_filter_kind kind,
                                      uint32_t parent, uint16_t prio,
                                      uint16_t proto)
{
	struct plan_filter *f = plan_port_add_filter(pp);

	assert_non_null(f);
	f->kind = kind;
	f->parent = parent;
	f->prio = prio;
	f->protocol = proto;
	snprintf(f->class_name, sizeof(f->class_name), "ROCE_CLASS");
	f->qos_group = 3;
	return f;
}

static void set_dscp(struct plan_filter *f, uint8_t dscp)
{
	f->match_dscp = true;
	f->dscp = dscp;
	f->dscp_mask = 0x3f;
}

/* A RED leaf as compile makes it for the reference WRED (150 kbytes ..
 * 3000 kbytes, 7 %) on a 10 Gb/s port, but with weight 1 so that tc's
 * command line can say it. */
static void fill_red(struct plan_red *r)
{
	r->qth_min = 150000;
	r->qth_max = 3000000;
	r->avpkt = 1000;
	/* the smallest burst for which tc's search stops at Wlog 1 */
	r->burst = r->qth_min / r->avpkt;
	while (compile_red_wlog(r->qth_min, r->burst, r->avpkt) != 1)
		r->burst++;
	r->limit = 2 * r->qth_max + r->burst * r->avpkt;
	r->bandwidth = 1250000000ull;
	r->probability_ppm = 70000;
	r->max_p = (uint32_t)((70000ull << 32) / 1000000u);
	r->wlog = 1;
	r->plog = (uint8_t)compile_red_plog(r->qth_min, r->qth_max, 0.07);
	r->scell_log =
	    (uint8_t)compile_red_scell_log(1, r->avpkt, r->bandwidth);
	r->ecn = true;
	r->wlog_cli_exact = true;
}

static char *text_tc(const struct plan_port *pp)
{
	struct strbuf sb;

	strbuf_init(&sb);
	plan_text_write_tc(pp, &sb);
	assert_false(sb.oom);
	return strbuf_detach(&sb);
}

static char *text_dcb(const struct plan_port *pp)
{
	struct strbuf sb;

	strbuf_init(&sb);
	plan_text_write_dcb(pp, &sb);
	assert_false(sb.oom);
	return strbuf_detach(&sb);
}

static char *text_all(const struct plan *pl)
{
	struct strbuf sb;

	strbuf_init(&sb);
	plan_text_write(pl, &sb);
	assert_false(sb.oom);
	return strbuf_detach(&sb);
}

/* The lines of TEXT that start with PREFIX, prefix removed; with PREFIX
 * NULL the lines that are not comments and not empty. */
static char *lines_of(const char *text, const char *prefix)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);

		if (prefix && !strncmp(l, prefix, strlen(prefix)))
			strbuf_add(&sb, l + strlen(prefix),
			           len - strlen(prefix));
		else if (!prefix && len > 1 && l[0] != '#')
			strbuf_add(&sb, l, len);
		l += len;
	}
	if (!sb.s)
		strbuf_puts(&sb, "");
	return strbuf_detach(&sb);
}

/* The reference policy on the host kernel: htb + bfifo, u32 to classes.
 * Objects are added to the plan children first: the writer must still put
 * every parent before its children. */
static void build_htb_fifo(struct plan_port *pp)
{
	struct plan_qdisc *q;
	struct plan_filter *f;

	pp->layout = PLAN_LAYOUT_HTB_FIFO;
	q = add_qdisc(pp, PLAN_QD_BFIFO, LEAF(3), CL(0x13), 3);
	q->u.fifo.limit = 9234000;
	q = add_qdisc(pp, PLAN_QD_BFIFO, LEAF(0), CL(0x10), 0);
	q->u.fifo.limit = 9234000;
	add_class(pp, CL(0x13), CL(1), 625000000, 1250000000, 0, 3);
	add_class(pp, CL(0x10), CL(1), 625000000, 1250000000, 0, 0);
	add_class(pp, CL(0x11), CL(1), 625000, 1250000000, 0, 1);
	add_class(pp, CL(1), ROOT, 1250000000, 1250000000, 0, -1);
	q = add_qdisc(pp, PLAN_QD_HTB, ROOT, PLAN_H_ROOT, -1);
	q->u.htb.defcls = 0x10;
	q->u.htb.r2q = 10;
	f = add_filter(pp, PLAN_FILTER_U32, ROOT, 4791, ETH_IP);
	set_dscp(f, 26);
	f->classid = CL(0x13);
	f = add_filter(pp, PLAN_FILTER_U32, ROOT, 4792, ETH_IPV6);
	set_dscp(f, 26);
	f->classid = CL(0x13);
}

static void test_htb_fifo(void **state)
{
	struct plan pl;
	struct plan_port *pp;
	char *t;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "swp1");
	build_htb_fifo(pp);
	t = text_tc(pp);
	assert_string_equal(
	    t, "qdisc add dev swp1 root handle 4791: htb default 10 r2q 10\n"
	       "class add dev swp1 parent 4791: classid 4791:1 htb rate "
	       "10000000000bit ceil 10000000000bit prio 0\n"
	       "class add dev swp1 parent 4791:1 classid 4791:13 htb rate "
	       "5000000000bit ceil 10000000000bit prio 0\n"
	       "qdisc add dev swp1 parent 4791:13 handle 4713: bfifo limit "
	       "9234000\n"
	       "class add dev swp1 parent 4791:1 classid 4791:10 htb rate "
	       "5000000000bit ceil 10000000000bit prio 0\n"
	       "qdisc add dev swp1 parent 4791:10 handle 4710: bfifo limit "
	       "9234000\n"
	       "class add dev swp1 parent 4791:1 classid 4791:11 htb rate "
	       "5000000bit ceil 10000000000bit prio 0\n"
	       "filter add dev swp1 parent 4791: protocol ip prio 4791 u32 "
	       "match ip dsfield 0x68 0xfc classid 4791:13\n"
	       "filter add dev swp1 parent 4791: protocol ipv6 prio 4792 u32 "
	       "match ip6 priority 0x68 0xfc classid 4791:13\n");
	free(t);
	plan_free(&pl);
}

/* HTB rates above 4 GB/s (tc's rate64) and a quantum. */
static void test_htb_rate64_quantum(void **state)
{
	struct plan pl;
	struct plan_port *pp;
	struct plan_qdisc *q;
	char *t;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "eth0");
	q = add_qdisc(pp, PLAN_QD_HTB, ROOT, PLAN_H_ROOT, -1);
	q->u.htb.defcls = 0x1a;
	add_class(pp, CL(1), ROOT, 50000000000ull, 50000000000ull, 0, -1);
	pp->classes[0].quantum = 200000;
	add_class(pp, CL(0x1a), CL(1), 1, 50000000000ull, 7, 0);
	t = text_tc(pp);
	assert_string_equal(
	    t, "qdisc add dev eth0 root handle 4791: htb default 1a\n"
	       "class add dev eth0 parent 4791: classid 4791:1 htb rate "
	       "400000000000bit ceil 400000000000bit prio 0 quantum "
	       "200000\n"
	       "class add dev eth0 parent 4791:1 classid 4791:1a htb rate "
	       "8bit ceil 400000000000bit prio 7\n");
	free(t);
	plan_free(&pl);
}

/* ets root with RED and bfifo leaves, clsact + flower/skbedit at ingress. */
static void build_ets_red(struct plan_port *pp)
{
	static const uint8_t prio2band[16] = {7, 6, 5, 4, 3, 2, 1, 0,
	                                      7, 7, 7, 7, 7, 7, 7, 7};
	struct plan_qdisc *q;
	struct plan_filter *f;

	pp->layout = PLAN_LAYOUT_ETS_RED;
	q = add_qdisc(pp, PLAN_QD_ETS, ROOT, PLAN_H_ROOT, -1);
	q->u.ets.nbands = 8;
	q->u.ets.nstrict = 1;
	for (int b = 1; b < 8; b++)
		q->u.ets.quanta[b] = b == 4 || b == 7 ? 46170 : 92;
	memcpy(q->u.ets.priomap, prio2band, 16);
	q = add_qdisc(pp, PLAN_QD_CLSACT, PLAN_H_CLSACT, PLAN_H_CLSACT, -1);
	/* queue 3 is band 4, class 4791:5 */
	q = add_qdisc(pp, PLAN_QD_RED, LEAF(3), CL(5), 3);
	fill_red(&q->u.red);
	q = add_qdisc(pp, PLAN_QD_BFIFO, LEAF(0), CL(8), 0);
	q->u.fifo.limit = 9234000;
	f = add_filter(pp, PLAN_FILTER_FLOWER, PLAN_H_CLSACT_INGRESS, 4791,
	               ETH_IP);
	set_dscp(f, 26);
	f->action = PLAN_ACT_SKBEDIT_PRIORITY;
	f->priority = 3;
	f = add_filter(pp, PLAN_FILTER_FLOWER, PLAN_H_CLSACT_INGRESS, 4792,
	               ETH_8021Q);
	f->match_pcp = true;
	f->pcp = 3;
	f->vlan_ethtype = ETH_IPV6;
	set_dscp(f, 26);
	f->action = PLAN_ACT_SKBEDIT_PRIORITY;
	f->priority = 3;
}

static void test_ets_red(void **state)
{
	struct plan pl;
	struct plan_port *pp;
	struct plan_red r = {0};
	char *t, expect[2048];

	(void)state;
	fill_red(&r);
	plan_init(&pl);
	pp = plan_add_port(&pl, "swp2");
	build_ets_red(pp);
	t = text_tc(pp);
	snprintf(expect, sizeof(expect),
	         "qdisc add dev swp2 root handle 4791: ets bands 8 strict 1 "
	         "quanta 92 92 92 46170 92 92 46170 priomap 7 6 5 4 3 2 1 0 7 "
	         "7 7 7 7 7 7 7\n"
	         "qdisc add dev swp2 parent 4791:5 handle 4713: red limit %u "
	         "min 150000 max 3000000 avpkt 1000 burst %u probability 0.07 "
	         "bandwidth 10000000000bit ecn\n"
	         "qdisc add dev swp2 parent 4791:8 handle 4710: bfifo limit "
	         "9234000\n"
	         "qdisc add dev swp2 clsact\n"
	         "filter add dev swp2 ingress protocol ip prio 4791 flower "
	         "ip_tos 0x68/0xfc action skbedit priority 3\n"
	         "filter add dev swp2 ingress protocol 802.1Q prio 4792 flower "
	         "vlan_prio 3 vlan_ethtype ipv6 ip_tos 0x68/0xfc action "
	         "skbedit priority 3\n",
	         r.limit, r.burst);
	assert_string_equal(t, expect);
	free(t);
	plan_free(&pl);
}

/* prio root (strict only), RED leaf, u32 with an skbedit action; the
 * skbedit priority is read by tc as a hex classid. */
static void test_prio_red(void **state)
{
	static const uint8_t map[16] = {2, 2, 1, 0, 2, 2, 2, 2,
	                                2, 2, 2, 2, 2, 2, 2, 2};
	struct plan pl;
	struct plan_port *pp;
	struct plan_qdisc *q;
	struct plan_filter *f;
	char *t;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "swp3");
	pp->layout = PLAN_LAYOUT_PRIO_RED;
	q = add_qdisc(pp, PLAN_QD_PRIO, ROOT, PLAN_H_ROOT, -1);
	q->u.prio.bands = 3;
	memcpy(q->u.prio.priomap, map, 16);
	q = add_qdisc(pp, PLAN_QD_PFIFO, LEAF(0), CL(3), 0);
	q->u.fifo.limit = 1000;
	f = add_filter(pp, PLAN_FILTER_U32, ROOT, 4791, ETH_IP);
	set_dscp(f, 46);
	f->dscp_mask = 0x38; /* a class selector block: top 3 bits */
	f->action = PLAN_ACT_SKBEDIT_PRIORITY;
	f->priority = 12;
	f = add_filter(pp, PLAN_FILTER_U32, ROOT, 4792, ETH_IP);
	f->classid = CL(1); /* no match key: every IPv4 packet */
	t = text_tc(pp);
	assert_string_equal(
	    t, "qdisc add dev swp3 root handle 4791: prio bands 3 priomap 2 2 "
	       "1 0 2 2 2 2 2 2 2 2 2 2 2 2\n"
	       "qdisc add dev swp3 parent 4791:3 handle 4710: pfifo limit "
	       "1000\n"
	       "filter add dev swp3 parent 4791: protocol ip prio 4791 u32 "
	       "match ip dsfield 0xb8 0xe0 action skbedit priority c\n"
	       "filter add dev swp3 parent 4791: protocol ip prio 4792 u32 "
	       "match u32 0 0 classid 4791:1\n");
	free(t);
	plan_free(&pl);
}

/* htb + red: the RED line under an HTB class, and Wlog 0 (weight 0),
 * which tc's command line cannot give: a comment says so. */
static void test_htb_red_wlog0(void **state)
{
	struct plan pl;
	struct plan_port *pp;
	struct plan_qdisc *q;
	char *t, *tc, *full_tc;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "swp1");
	pp->layout = PLAN_LAYOUT_HTB_RED;
	q = add_qdisc(pp, PLAN_QD_HTB, ROOT, PLAN_H_ROOT, -1);
	q->u.htb.defcls = 0x10;
	add_class(pp, CL(1), ROOT, 1250000000, 1250000000, 0, -1);
	add_class(pp, CL(0x13), CL(1), 625000000, 1250000000, 0, 3);
	q = add_qdisc(pp, PLAN_QD_RED, LEAF(3), CL(0x13), 3);
	fill_red(&q->u.red);
	q->u.red.wlog = 0;
	q->u.red.scell_log = 0;
	q->u.red.wlog_cli_exact = false;

	tc = text_tc(pp);
	assert_non_null(strstr(tc, "qdisc add dev swp1 parent 4791:13 handle "
	                           "4713: red limit "));
	assert_null(strchr(tc, '#'));

	t = text_all(&pl);
	assert_non_null(strstr(t, "# red Wlog 0 (weight 0) cannot be given on "
	                          "tc's command line"));
	assert_non_null(strstr(t, "this line makes Wlog 1, roced sets Wlog 0 "
	                          "and Scell_log 0 over netlink\n"
	                          "qdisc add dev swp1 parent 4791:13 handle "
	                          "4713: red"));
	assert_non_null(strstr(t, "# layout htb+red\n"));
	full_tc = lines_of(t, NULL);
	assert_string_equal(full_tc, tc);
	/* With Wlog 1, the line says it all: no such comment. */
	q->u.red.wlog = 1;
	q->u.red.scell_log =
	    (uint8_t)compile_red_scell_log(1, 1000, 1250000000ull);
	q->u.red.wlog_cli_exact = true;
	free(t);
	t = text_all(&pl);
	assert_null(strstr(t, "cannot be given"));
	assert_null(strstr(t, "warning"));
	free(t);
	free(tc);
	free(full_tc);
	plan_free(&pl);
}

/* RED numbers: the probability printed is the one that gives the plan's
 * max_P back; a max_P no short decimal gives is printed in full. A plan
 * value tc would derive differently is flagged. */
static void test_red_numbers(void **state)
{
	struct plan pl;
	struct plan_port *pp;
	struct plan_qdisc *q;
	char *t;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "swp1");
	q = add_qdisc(pp, PLAN_QD_RED, ROOT, PLAN_H_ROOT, -1);
	fill_red(&q->u.red);

	/* 100 %: max_P is the largest fraction, 0.99999999976716936. */
	q->u.red.probability_ppm = 1000000;
	q->u.red.max_p = UINT32_MAX;
	q->u.red.plog =
	    (uint8_t)compile_red_plog(150000, 3000000, 0.99999999976716936);
	t = text_all(&pl);
	assert_non_null(strstr(t, " probability 0.99999999976716936 "));
	assert_null(strstr(t, "warning"));
	free(t);

	/* 0.5 % -> "0.005" */
	q->u.red.probability_ppm = 5000;
	q->u.red.max_p = (uint32_t)((5000ull << 32) / 1000000u);
	q->u.red.plog = (uint8_t)compile_red_plog(150000, 3000000, 0.005);
	t = text_all(&pl);
	assert_non_null(strstr(t, " probability 0.005 "));
	assert_null(strstr(t, "warning"));
	free(t);

	/* A plan whose Wlog disagrees with its burst is called out. */
	q->u.red.wlog = 5;
	t = text_all(&pl);
	assert_non_null(strstr(t, "# warning: tc derives Wlog 1 from burst"));
	free(t);
	q->u.red.wlog = 1;

	/* tc takes at most 2^32-1 bytes/s: 100 Gb/s is capped, and the
	 * comment says the Scell_log stays the same. */
	q->u.red.bandwidth = 12500000000ull;
	q->u.red.scell_log =
	    (uint8_t)compile_red_scell_log(1, 1000, 12500000000ull);
	t = text_all(&pl);
	assert_non_null(strstr(t, " bandwidth 34359738360bit"));
	assert_non_null(strstr(t, "# tc takes a red bandwidth of at most "
	                          "34359738360bit; the plan's "
	                          "100000000000bit gives the same Scell_log"));
	assert_null(strstr(t, "warning"));
	free(t);
	plan_free(&pl);
}

/* The DCB part: pfc, ets, app (one line per selector, PCP with its DEI
 * suffix, ethertype protocol 0 as default-prio), apptrust. */
static void fill_dcb(struct plan_port *pp)
{
	struct plan_dcb *d = &pp->dcb;
	static const struct plan_app apps[] = {
	    {PLAN_APP_SEL_DSCP, 26, 3},          {PLAN_APP_SEL_PCP, 3, 3},
	    {PLAN_APP_SEL_DSCP, 48, 6},          {PLAN_APP_SEL_PCP, 11, 3},
	    {PLAN_APP_SEL_ETHERTYPE, 0, 1},      {3, 4791, 3},
	    {PLAN_APP_SEL_ETHERTYPE, 0x8915, 3},
	};

	d->pfc_cap = 8;
	d->pfc_admin = 0x08;
	d->pfc_en = 0x08;
	for (int i = 0; i < 8; i++) {
		d->ets_tsa[i] = i == 6 ? PLAN_TSA_STRICT : PLAN_TSA_ETS;
		d->prio_tc[i] = (uint8_t)i;
	}
	d->ets_bw[0] = 50;
	d->ets_bw[3] = 50;
	memcpy(d->app, apps, sizeof(apps));
	d->napp = sizeof(apps) / sizeof(apps[0]);
	d->trust[0] = PLAN_APP_SEL_DSCP;
	d->trust[1] = PLAN_APP_SEL_PCP;
	d->ntrust = 2;
	d->mtu = 9216;
}

static void test_dcb(void **state)
{
	struct plan pl;
	struct plan_port *pp;
	char *t;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "swp1");
	pp->layout = PLAN_LAYOUT_ETS_RED;
	fill_dcb(pp);
	t = text_dcb(pp);
	assert_string_equal(
	    t, "pfc set dev swp1 prio-pfc 0:off 1:off 2:off 3:on 4:off "
	       "5:off 6:off 7:off\n"
	       "ets set dev swp1 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets "
	       "5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 "
	       "7:0 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7\n"
	       "app add dev swp1 dscp-prio 26:3 48:6\n"
	       "app add dev swp1 default-prio 1\n"
	       "app add dev swp1 ethtype-prio 0x8915:3\n"
	       "app add dev swp1 dgram-port-prio 4791:3\n"
	       "app add dev swp1 pcp-prio 3nd:3 3de:3\n"
	       "apptrust set dev swp1 order dscp pcp\n");
	free(t);

	/* PFC off, no queuing policy, no APP: only the pfc line. */
	memset(&pp->dcb, 0, sizeof(pp->dcb));
	pp->layout = PLAN_LAYOUT_NONE;
	t = text_dcb(pp);
	assert_string_equal(t, "pfc set dev swp1 prio-pfc 0:off 1:off 2:off "
	                       "3:off 4:off 5:off 6:off 7:off\n");
	free(t);
	plan_free(&pl);
}

/* The whole dry run of one software port: headers, warnings, MTU, DCB
 * and tc lines, exactly. */
static void test_full_software(void **state)
{
	struct plan pl;
	struct plan_port *pp;
	struct plan_qdisc *q;
	struct plan_filter *f;
	char *t;

	(void)state;
	plan_init(&pl);
	diag_warn(&pl.diag, 0, "no port matches interface Ethernet1/9");
	pp = plan_add_port(&pl, "swp1");
	snprintf(pp->alias, sizeof(pp->alias), "Ethernet1/1");
	snprintf(pp->qos_policy, sizeof(pp->qos_policy), "ROCE_POLICY");
	snprintf(pp->queuing_policy, sizeof(pp->queuing_policy),
	         "ROCE_QUEUING_OUT");
	pp->layout = PLAN_LAYOUT_HTB_FIFO;
	pp->pfc_mode = POLICY_PFC_ON;
	pp->watchdog = true;
	/* the shipped watchdog's times, as compile resolves them */
	pp->wd = (struct plan_wd){.poll_ms = 100,
	                          .detect_ms = 300,
	                          .auto_restore_ms = 1000,
	                          .action = POLICY_PFCWD_DROP};
	pp->dcb.software = true;
	pp->dcb.pfc_admin = pp->dcb.pfc_en = 0x08;
	for (int i = 0; i < 8; i++) {
		pp->dcb.ets_tsa[i] = PLAN_TSA_ETS;
		pp->dcb.prio_tc[i] = (uint8_t)i;
	}
	pp->dcb.ets_bw[0] = pp->dcb.ets_bw[3] = 50;
	pp->dcb.mtu = 9216;
	pp->dcb.app[0] = (struct plan_app){PLAN_APP_SEL_DSCP, 26, 3};
	pp->dcb.napp = 1;
	diag_warn(&pp->warnings, 0,
	          "kernel lacks red: c-out-8q-q3 WRED-ECN not realised");
	q = add_qdisc(pp, PLAN_QD_HTB, ROOT, PLAN_H_ROOT, -1);
	q->u.htb.defcls = 0x10;
	add_class(pp, CL(0x13), ROOT, 625000000, 1250000000, 0, 3);
	add_class(pp, CL(0x10), ROOT, 625000000, 1250000000, 0, 0);
	q = add_qdisc(pp, PLAN_QD_BFIFO, LEAF(3), CL(0x13), 3);
	q->u.fifo.limit = 9234000;
	q = add_qdisc(pp, PLAN_QD_BFIFO, LEAF(0), CL(0x10), 0);
	q->u.fifo.limit = 9234000;
	f = add_filter(pp, PLAN_FILTER_U32, ROOT, 4791, ETH_IP);
	set_dscp(f, 26);
	f->classid = CL(0x13);
	t = text_all(&pl);
	assert_string_equal(
	    t, "# roced dry run: the plan as iproute2 commands\n"
	       "# objects are added, not replaced: replay on ports that hold "
	       "none of them yet\n"
	       "#   tc -batch FILE\n"
	       "#   sed -n 's/^#ip //p' FILE | ip -batch -\n"
	       "#   sed -n 's/^#dcb //p' FILE | dcb -f -b -\n"
	       "# dcb \"app ... pcp-prio\" and \"apptrust\" need iproute2 "
	       "6.2 or later\n"
	       "# warning: no port matches interface Ethernet1/9\n"
	       "\n"
	       "# port swp1 (Ethernet1/1)\n"
	       "# link speed unknown\n"
	       "# dcb: software (no dcbnl): roced realises the #dcb part "
	       "itself, APP and trust as the tc classification below, ETS as "
	       "the qdisc tree, PFC with its own pause frames; the #dcb "
	       "lines are for reference\n"
	       "# layout htb+bfifo\n"
	       "# qos policy ROCE_POLICY (input), queuing policy "
	       "ROCE_QUEUING_OUT (output)\n"
	       "# pfc mode on, no-drop priorities 3, PFC enabled on 3\n"
	       "# pfc watchdog on: poll 100 ms, storm after 300 ms, "
	       "auto-restore after 1000 ms, fixed-restore none, action drop\n"
	       "# warning: kernel lacks red: c-out-8q-q3 WRED-ECN not "
	       "realised\n"
	       "#ip link set dev swp1 mtu 9216\n"
	       "#dcb pfc set dev swp1 prio-pfc 0:off 1:off 2:off 3:on 4:off "
	       "5:off 6:off 7:off\n"
	       "#dcb ets set dev swp1 tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets "
	       "5:ets 6:ets 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0 "
	       "prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7\n"
	       "#dcb app add dev swp1 dscp-prio 26:3\n"
	       "qdisc add dev swp1 root handle 4791: htb default 10\n"
	       "# queue 3 (c-out-8q-q3)\n"
	       "class add dev swp1 parent 4791: classid 4791:13 htb rate "
	       "5000000000bit ceil 10000000000bit prio 0\n"
	       "qdisc add dev swp1 parent 4791:13 handle 4713: bfifo limit "
	       "9234000\n"
	       "# queue 0 (c-out-8q-q-default)\n"
	       "class add dev swp1 parent 4791: classid 4791:10 htb rate "
	       "5000000000bit ceil 10000000000bit prio 0\n"
	       "qdisc add dev swp1 parent 4791:10 handle 4710: bfifo limit "
	       "9234000\n"
	       "# class-map ROCE_CLASS: qos-group 3\n"
	       "filter add dev swp1 parent 4791: protocol ip prio 4791 u32 "
	       "match ip dsfield 0x68 0xfc classid 4791:13\n");
	free(t);
	plan_free(&pl);
}

/* Hardware DCB ports say the driver does the DCB part; PFC waiting for
 * DCBX says so; names with control characters stay on their line. */
static void test_full_hardware(void **state)
{
	struct plan pl;
	struct plan_port *pp;
	char *t, *dcb, *full_dcb, *tc, *full_tc;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "enp1s0f0");
	snprintf(pp->alias, sizeof(pp->alias), "Ether\nnet1/2");
	pp->caps.hw_dcb = true;
	pp->caps.speed_mbps = 100000;
	pp->pfc_mode = POLICY_PFC_AUTO;
	pp->pfc_awaiting_dcbx = true;
	build_ets_red(pp);
	fill_dcb(pp);
	pp->dcb.pfc_en = 0;
	t = text_all(&pl);
	assert_non_null(strstr(t, "# port enp1s0f0 (Ether net1/2)\n"));
	assert_non_null(strstr(t, "# link speed 100000 Mb/s\n"));
	assert_non_null(strstr(t, "# dcb: hardware (dcbnl): roced sets the "
	                          "#dcb part in the driver\n"));
	assert_null(strstr(t, "software"));
	assert_non_null(strstr(t, "# pfc mode auto, no-drop priorities 3: "
	                          "waiting for a DCBX agreement, PFC enabled "
	                          "on none until then\n"));
	assert_non_null(strstr(t, "# qos policy none (input), queuing policy "
	                          "none (output)\n"));
	assert_non_null(strstr(t, "# pfc watchdog off\n"));
	assert_non_null(strstr(t, "#dcb pfc set dev enp1s0f0 prio-pfc 0:off "
	                          "1:off 2:off 3:off"));
	/* The full text holds the same tc and dcb lines as the one-port
	 * writers, and nothing else outside comments. */
	dcb = text_dcb(pp);
	full_dcb = lines_of(t, "#dcb ");
	assert_string_equal(full_dcb, dcb);
	tc = text_tc(pp);
	full_tc = lines_of(t, NULL);
	assert_string_equal(full_tc, tc);
	free(t);
	free(dcb);
	free(full_dcb);
	free(tc);
	free(full_tc);
	plan_free(&pl);
}

/* A match the classifier cannot express is left out with a warning, not
 * printed as a line tc would refuse; an unknown parent goes last. */
static void test_unexpressible(void **state)
{
	struct plan pl;
	struct plan_port *pp;
	struct plan_filter *f;
	struct plan_qdisc *q;
	char *t, *tc;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "swp1");
	q = add_qdisc(pp, PLAN_QD_BFIFO, LEAF(1), PLAN_H_MAKE(0x99, 1), 1);
	q->u.fifo.limit = 1000;
	f = add_filter(pp, PLAN_FILTER_U32, ROOT, 4791, ETH_8021Q);
	f->match_pcp = true;
	f->pcp = 3;
	f->classid = CL(0x13);
	f = add_filter(pp, PLAN_FILTER_FLOWER, PLAN_H_CLSACT_INGRESS, 4792,
	               ETH_IP);
	f->match_pcp = true;
	f->pcp = 3;
	t = text_all(&pl);
	tc = text_tc(pp);
	assert_non_null(strstr(t, "# warning: u32 cannot express class "
	                          "ROCE_CLASS (protocol 0x8100, pcp), filter "
	                          "prio 4791 left out\n"));
	assert_non_null(strstr(t, "# warning: flower cannot express class "
	                          "ROCE_CLASS (protocol 0x0800, pcp), filter "
	                          "prio 4792 left out\n"));
	assert_non_null(strstr(t, "# warning: the parent of qdisc 4711: is "
	                          "not in the plan\n"));
	assert_string_equal(tc, "qdisc add dev swp1 parent 99:1 handle 4711: "
	                        "bfifo limit 1000\n");
	free(t);
	free(tc);
	plan_free(&pl);
}

/* A cls_bpf rule: tc's bytecode argument ('N,CODE JT JF K,...' in
 * decimal) and the default class; the dry run says what the program is,
 * and a program without instructions is left out with a warning. */
static void test_bpf(void **state)
{
	struct plan pl;
	struct plan_port *pp;
	struct plan_filter *f;
	char *t, *tc;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "swp1");
	f = add_filter(pp, PLAN_FILTER_BPF, ROOT, 4791, 0x0003);
	snprintf(f->class_name, sizeof(f->class_name), "ROCE_POLICY");
	f->classid = CL(0x10);
	f->bpf_len = 3;
	f->bpf[0] = (struct plan_bpf_insn){0x28, 0, 0, 12}; /* ldh [12] */
	f->bpf[1] = (struct plan_bpf_insn){0x15, 0, 1, 0x800};
	f->bpf[2] = (struct plan_bpf_insn){0x06, 0, 0, 0xffffffffu};
	f = add_filter(pp, PLAN_FILTER_BPF, ROOT, 4792, 0x0003);
	t = text_all(&pl);
	tc = text_tc(pp);
	assert_string_equal(tc, "filter add dev swp1 parent 4791: protocol all "
	                        "prio 4791 bpf bytecode '3,40 0 0 12,21 0 1 "
	                        "2048,6 0 0 4294967295' classid 4791:10\n");
	assert_non_null(strstr(t, "# qos policy ROCE_POLICY: one cls_bpf "
	                          "program returns the class of the first "
	                          "class-map that matches, else -1 "
	                          "(class-default)\n"));
	assert_non_null(strstr(t, "# warning: bpf cannot express class "));
	free(t);
	free(tc);
	plan_free(&pl);
}

/* Several ports: each gets its block, in plan order. */
static void test_two_ports(void **state)
{
	struct plan pl;
	char *t, *a, *b;

	(void)state;
	plan_init(&pl);
	build_htb_fifo(plan_add_port(&pl, "swp1"));
	build_htb_fifo(plan_add_port(&pl, "swp2"));
	t = text_all(&pl);
	a = strstr(t, "\n# port swp1\n");
	b = strstr(t, "\n# port swp2\n");
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b);
	assert_non_null(strstr(b, "qdisc add dev swp2 root handle 4791:"));
	assert_null(strstr(b, "dev swp1"));
	free(t);
	plan_free(&pl);
}

/* One port's text for comparing plans leaves out its warnings (their
 * FILE:LINE moves with the file's lines), and the diff of two texts
 * names the lines each lacks, whatever their order. */
static void test_port_diff(void **state)
{
	struct strbuf a, b, d;
	struct plan pl;
	struct plan_port *pp;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "swp1");
	build_htb_fifo(pp);
	diag_warn(&pp->warnings, 12, "a warning at line 12");
	strbuf_init(&a);
	plan_text_write_port(pp, &a);
	assert_non_null(strstr(a.s, "# port swp1\n"));
	assert_non_null(strstr(a.s, "qdisc add dev swp1 root handle 4791:"));
	assert_null(strstr(a.s, "line 12"));

	strbuf_init(&d);
	assert_int_equal(plan_text_diff(a.s, a.s, &d), 0);
	assert_true(!d.s || !d.s[0]);
	strbuf_free(&d);

	strbuf_init(&b);
	strbuf_init(&d);
	strbuf_puts(&b, "x\nclass b\nsame\nsame\n");
	assert_int_equal(plan_text_diff("same\nclass a\nsame\nx\nold", b.s, &d),
	                 3);
	assert_string_equal(d.s, "-class a\n-old\n+class b\n");
	strbuf_free(&d);
	strbuf_init(&d);
	assert_int_equal(plan_text_diff("", "one\n", &d), 1);
	assert_string_equal(d.s, "+one\n");
	strbuf_free(&d);
	strbuf_free(&a);
	strbuf_free(&b);
	plan_free(&pl);
}

/* A port's own watchdog times are lines of its text, so a reload's dry
 * run shows a change of them (a port's shutdown-multiplier) as one. */
static void test_port_diff_watchdog(void **state)
{
	struct strbuf a, b, d;
	struct plan pl;
	struct plan_port *pp;

	(void)state;
	plan_init(&pl);
	pp = plan_add_port(&pl, "swp1");
	build_htb_fifo(pp);
	pp->watchdog = true;
	pp->wd = (struct plan_wd){.poll_ms = 100,
	                          .detect_ms = 300,
	                          .auto_restore_ms = 1000,
	                          .action = POLICY_PFCWD_DROP};
	strbuf_init(&a);
	plan_text_write_port(pp, &a);
	pp->wd.detect_ms = 800;
	pp->wd.fixed_restore_ms = 5000;
	pp->wd.internal = true;
	strbuf_init(&b);
	plan_text_write_port(pp, &b);
	strbuf_init(&d);
	assert_int_equal(plan_text_diff(a.s, b.s, &d), 2);
	assert_string_equal(
	    d.s, "-# pfc watchdog on: poll 100 ms, storm after 300 ms, "
	         "auto-restore after 1000 ms, fixed-restore none, action "
	         "drop\n"
	         "+# pfc watchdog on: poll 100 ms, storm after 800 ms, "
	         "auto-restore after 1000 ms, fixed-restore 5000 ms, action "
	         "drop (fabric-internal times)\n");
	strbuf_free(&d);
	strbuf_free(&a);
	strbuf_free(&b);
	plan_free(&pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_htb_fifo),
	    cmocka_unit_test(test_htb_rate64_quantum),
	    cmocka_unit_test(test_ets_red),
	    cmocka_unit_test(test_prio_red),
	    cmocka_unit_test(test_htb_red_wlog0),
	    cmocka_unit_test(test_red_numbers),
	    cmocka_unit_test(test_dcb),
	    cmocka_unit_test(test_full_software),
	    cmocka_unit_test(test_full_hardware),
	    cmocka_unit_test(test_unexpressible),
	    cmocka_unit_test(test_bpf),
	    cmocka_unit_test(test_two_ports),
	    cmocka_unit_test(test_port_diff),
	    cmocka_unit_test(test_port_diff_watchdog),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
