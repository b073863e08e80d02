/* plan_text: the plan as iproute2 commands. See plan_text.h.
 *
 * Every number is printed in the unit and base the tc/dcb parser reads it
 * in, so that replaying the text makes the kernel hold exactly the plan:
 * rates in "bit" (bytes * 8, which tc divides back exactly), handles and
 * htb "default" in hex, skbedit priority as a tc classid (hex), RED
 * probability in the shortest decimal that gives the plan's max_P back.
 */
#include "plan/plan_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcbnl.h>

#include "plan/compile.h"
#include "model/policy.h"

#define PLAN_TEXT_ETH_P_ALL    0x0003u
#define PLAN_TEXT_ETH_P_IP     0x0800u
#define PLAN_TEXT_ETH_P_8021Q  0x8100u
#define PLAN_TEXT_ETH_P_8021AD 0x88a8u
#define PLAN_TEXT_ETH_P_IPV6   0x86ddu

/* tc's red takes "bandwidth" as a 32-bit byte rate. */
#define PLAN_TEXT_RED_BW_MAX 0xffffffffull

struct plan_text_ctx {
	const struct plan_port *pp;
	struct strbuf *out;
	bool comments;  /* full dry run, not plan_text_write_tc */
	int last_queue; /* queue named by the last "# queue" comment */
	bool *qd_done;  /* per qdisc: already written */
	bool *cl_done;  /* per class: already written */
};

/* Comments carry user-chosen names: keep each on one line. */
static void plan_text_comment(struct strbuf *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void plan_text_comment(struct strbuf *out, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		out->oom = true;
		return;
	}
	for (char *p = text; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	strbuf_puts(out, "# ");
	strbuf_puts(out, text);
	strbuf_puts(out, "\n");
	free(text);
}

static void plan_text_diag(struct strbuf *out, const struct diag *d)
{
	for (size_t i = 0; i < d->n; i++) {
		char small[256];
		int n = diag_format(d, i, small, sizeof(small));
		char *big;

		if (n < 0)
			continue;
		if ((size_t)n < sizeof(small)) {
			plan_text_comment(out, "%s", small);
			continue;
		}
		big = malloc((size_t)n + 1);
		if (!big) {
			out->oom = true;
			return;
		}
		diag_format(d, i, big, (size_t)n + 1);
		plan_text_comment(out, "%s", big);
		free(big);
	}
}

/* tc's notation: "4791:" for a qdisc handle, "4791:13" for a class. */
static void plan_text_handle(struct strbuf *out, uint32_t h)
{
	if (PLAN_H_MIN(h))
		strbuf_printf(out, "%x:%x", PLAN_H_MAJ(h), PLAN_H_MIN(h));
	else
		strbuf_printf(out, "%x:", PLAN_H_MAJ(h));
}

static void plan_text_parent(struct strbuf *out, uint32_t parent)
{
	switch (parent) {
	case PLAN_H_ROOT:
		strbuf_puts(out, " root");
		return;
	case PLAN_H_CLSACT_INGRESS:
		strbuf_puts(out, " ingress");
		return;
	case PLAN_H_CLSACT_EGRESS:
		strbuf_puts(out, " egress");
		return;
	}
	strbuf_puts(out, " parent ");
	plan_text_handle(out, parent);
}

static void plan_text_protocol(struct strbuf *out, uint16_t proto)
{
	switch (proto) {
	case PLAN_TEXT_ETH_P_IP:
		strbuf_puts(out, "ip");
		break;
	case PLAN_TEXT_ETH_P_IPV6:
		strbuf_puts(out, "ipv6");
		break;
	case PLAN_TEXT_ETH_P_8021Q:
		strbuf_puts(out, "802.1Q");
		break;
	case PLAN_TEXT_ETH_P_8021AD:
		strbuf_puts(out, "802.1ad");
		break;
	case PLAN_TEXT_ETH_P_ALL:
		strbuf_puts(out, "all");
		break;
	default:
		strbuf_printf(out, "0x%04x", proto);
		break;
	}
}

/* skbedit reads its priority with tc's classid parser: bare hex is the
 * whole value, "maj:min" above 16 bits. */
static void plan_text_skb_priority(struct strbuf *out, uint32_t prio)
{
	if (prio > 0xffffu)
		strbuf_printf(out, "%x:%x", PLAN_H_MAJ(prio), PLAN_H_MIN(prio));
	else
		strbuf_printf(out, "%x", prio);
}

static void plan_text_priomap(struct strbuf *out, const uint8_t map[16])
{
	strbuf_puts(out, " priomap");
	for (int i = 0; i < 16; i++)
		strbuf_printf(out, " %u", map[i]);
}

/* What tc stores for "probability S": max_P = S * 2^32 in a u32. On the
 * x86-64 builds of tc the conversion wraps modulo 2^32 (1.0 gives 0). */
static uint32_t plan_text_tc_max_p(const char *s)
{
	double d = strtod(s, NULL) * 4294967296.0;

	if (!(d >= 0.0) || d >= 18446744073709551616.0)
		return 0;
	return (uint32_t)(uint64_t)d;
}

/* The probability as tc should read it: the configured ppm as a short
 * decimal when that reproduces max_P, else max_P / 2^32 in full (exact in
 * a double, and %.17g round-trips). Returns false when neither does. */
static bool plan_text_red_probability(const struct plan_red *r, char *buf,
                                      size_t len)
{
	uint32_t ip = r->probability_ppm / 1000000u;
	uint32_t fr = r->probability_ppm % 1000000u;
	char frac[8];
	int w = 6;

	if (fr) {
		while (fr % 10 == 0) {
			fr /= 10;
			w--;
		}
		snprintf(frac, sizeof(frac), "%0*u", w, fr);
		snprintf(buf, len, "%u.%s", ip, frac);
	} else {
		snprintf(buf, len, "%u", ip);
	}
	if (plan_text_tc_max_p(buf) == r->max_p)
		return true;
	snprintf(buf, len, "%.17g", (double)r->max_p / 4294967296.0);
	return plan_text_tc_max_p(buf) == r->max_p;
}

/* What tc makes of the red line: the values it derives from the printed
 * inputs, to be checked against the plan. */
struct plan_text_red_cli {
	char prob[64];
	bool prob_ok;
	uint64_t bw; /* bytes/s, within tc's 32-bit limit */
	int wlog, plog, scell_log;
};

static void plan_text_red_cli(const struct plan_red *r,
                              struct plan_text_red_cli *cli)
{
	cli->prob_ok =
	    plan_text_red_probability(r, cli->prob, sizeof(cli->prob));
	cli->bw = r->bandwidth > PLAN_TEXT_RED_BW_MAX ? PLAN_TEXT_RED_BW_MAX
	                                              : r->bandwidth;
	cli->wlog = compile_red_wlog(r->qth_min, r->burst, r->avpkt);
	cli->plog =
	    compile_red_plog(r->qth_min, r->qth_max, strtod(cli->prob, NULL));
	cli->scell_log =
	    cli->wlog < 0 ? -1
	                  : compile_red_scell_log(cli->wlog, r->avpkt, cli->bw);
}

/* Comment lines before the red line: where the command line cannot say
 * what the plan holds, and any value tc would derive differently. */
static void plan_text_red_notes(struct strbuf *out, const struct plan_red *r,
                                const struct plan_text_red_cli *cli)
{
	if (!r->wlog_cli_exact)
		plan_text_comment(
		    out,
		    "red Wlog %u (weight %u) cannot be given on "
		    "tc's command line, which derives Wlog from "
		    "burst starting at 1: this line makes Wlog "
		    "%d, roced sets Wlog %u and Scell_log %u over "
		    "netlink",
		    r->wlog, r->wlog, cli->wlog, r->wlog, r->scell_log);
	else if (cli->wlog != r->wlog)
		plan_text_comment(out,
		                  "warning: tc derives Wlog %d from burst %u, "
		                  "the plan holds %u",
		                  cli->wlog, r->burst, r->wlog);
	if (!cli->prob_ok)
		plan_text_comment(out,
		                  "warning: no probability tc reads gives "
		                  "max_P %u",
		                  r->max_p);
	if (cli->plog != r->plog)
		plan_text_comment(out,
		                  "warning: tc derives Plog %d from "
		                  "probability %s, the plan holds %u",
		                  cli->plog, cli->prob, r->plog);
	if (r->wlog_cli_exact && cli->scell_log != r->scell_log)
		plan_text_comment(out,
		                  "warning: tc derives Scell_log %d from "
		                  "bandwidth %llubit, the plan holds %u",
		                  cli->scell_log,
		                  (unsigned long long)cli->bw * 8,
		                  r->scell_log);
	else if (cli->bw != r->bandwidth)
		plan_text_comment(out,
		                  "tc takes a red bandwidth of at most "
		                  "%llubit; the plan's %llubit gives the same "
		                  "Scell_log %u",
		                  (unsigned long long)cli->bw * 8,
		                  (unsigned long long)r->bandwidth * 8,
		                  r->scell_log);
}

static void plan_text_red_opts(struct strbuf *out, const struct plan_red *r,
                               const struct plan_text_red_cli *cli)
{
	strbuf_printf(out,
	              " limit %u min %u max %u avpkt %u burst %u "
	              "probability %s bandwidth %llubit",
	              r->limit, r->qth_min, r->qth_max, r->avpkt, r->burst,
	              cli->prob, (unsigned long long)cli->bw * 8);
	if (r->ecn)
		strbuf_puts(out, " ecn");
	if (r->harddrop)
		strbuf_puts(out, " harddrop");
	if (r->nodrop)
		strbuf_puts(out, " nodrop");
}

static void plan_text_queue_comment(struct plan_text_ctx *c, int queue)
{
	if (!c->comments || queue < 0 || queue == c->last_queue)
		return;
	c->last_queue = queue;
	plan_text_comment(c->out, "queue %d (%s)", queue,
	                  policy_queue_name((unsigned)queue));
}

static void plan_text_qdisc(struct plan_text_ctx *c, const struct plan_qdisc *q)
{
	struct strbuf *out = c->out;
	const char *dev = c->pp->ifname;
	struct plan_text_red_cli red;

	if (q->queue < 0)
		c->last_queue = -1;
	plan_text_queue_comment(c, q->queue);
	if (q->kind == PLAN_QD_CLSACT) {
		strbuf_printf(out, "qdisc add dev %s %s\n", dev,
		              plan_qdisc_kind_name(q->kind));
		return;
	}
	if (q->kind == PLAN_QD_RED) {
		plan_text_red_cli(&q->u.red, &red);
		if (c->comments)
			plan_text_red_notes(out, &q->u.red, &red);
	}
	strbuf_printf(out, "qdisc add dev %s", dev);
	plan_text_parent(out, q->parent);
	strbuf_puts(out, " handle ");
	plan_text_handle(out, q->handle);
	strbuf_printf(out, " %s", plan_qdisc_kind_name(q->kind));
	switch (q->kind) {
	case PLAN_QD_ETS: {
		const struct plan_ets *e = &q->u.ets;

		strbuf_printf(out, " bands %u", e->nbands);
		if (e->nstrict)
			strbuf_printf(out, " strict %u", e->nstrict);
		if (e->nbands > e->nstrict) {
			strbuf_puts(out, " quanta");
			for (unsigned b = e->nstrict; b < e->nbands && b < 8;
			     b++)
				strbuf_printf(out, " %u", e->quanta[b]);
		}
		plan_text_priomap(out, e->priomap);
		break;
	}
	case PLAN_QD_PRIO:
		strbuf_printf(out, " bands %u", q->u.prio.bands);
		plan_text_priomap(out, q->u.prio.priomap);
		break;
	case PLAN_QD_HTB:
		strbuf_printf(out, " default %x", q->u.htb.defcls);
		if (q->u.htb.r2q)
			strbuf_printf(out, " r2q %u", q->u.htb.r2q);
		break;
	case PLAN_QD_RED:
		plan_text_red_opts(out, &q->u.red, &red);
		break;
	case PLAN_QD_BFIFO:
		strbuf_printf(out, " limit %u", q->u.fifo.limit);
		break;
	case PLAN_QD_PFIFO:
		strbuf_printf(out, " limit %u", q->u.fifo.limit);
		break;
	case PLAN_QD_TBF:
		strbuf_printf(out, " rate %llubit burst %u limit %u",
		              (unsigned long long)q->u.tbf.rate * 8,
		              q->u.tbf.burst, q->u.tbf.limit);
		break;
	case PLAN_QD_CLSACT:
		break;
	}
	strbuf_puts(out, "\n");
}

static void plan_text_class(struct plan_text_ctx *c, const struct plan_class *k)
{
	struct strbuf *out = c->out;

	if (k->queue < 0)
		c->last_queue = -1;
	plan_text_queue_comment(c, k->queue);
	if (c->comments && (!k->rate || !k->ceil))
		plan_text_comment(out, "warning: tc refuses an htb rate of 0");
	strbuf_printf(out, "class add dev %s", c->pp->ifname);
	plan_text_parent(out, k->parent);
	strbuf_puts(out, " classid ");
	plan_text_handle(out, k->classid);
	strbuf_printf(out, " %s rate %llubit ceil %llubit prio %u",
	              plan_qdisc_kind_name(PLAN_QD_HTB),
	              (unsigned long long)k->rate * 8,
	              (unsigned long long)k->ceil * 8, k->prio);
	if (k->quantum)
		strbuf_printf(out, " quantum %u", k->quantum);
	/* Plain numbers are bytes to tc, as the plan keeps them. */
	if (k->burst)
		strbuf_printf(out, " burst %u", k->burst);
	if (k->cburst)
		strbuf_printf(out, " cburst %u", k->cburst);
	strbuf_puts(out, "\n");
}

/* A u32 key on the DSCP bits: IPv4 TOS byte, or the IPv6 traffic class
 * (tc shifts "ip6 priority VAL MASK" into bits 20-27 of the first word,
 * so VAL is the traffic class byte, like the TOS byte). */
static bool plan_text_u32_match(struct strbuf *out, const struct plan_filter *f)
{
	unsigned tos = (unsigned)(f->dscp & 0x3f) << 2;
	unsigned mask = (unsigned)(f->dscp_mask & 0x3f) << 2;

	if (f->match_pcp)
		return false; /* no u32 key reaches an offloaded VLAN tag */
	if (!f->match_dscp) {
		strbuf_puts(out, " match u32 0 0");
		return true;
	}
	if (f->protocol == PLAN_TEXT_ETH_P_IP)
		strbuf_printf(out, " match ip dsfield 0x%02x 0x%02x", tos,
		              mask);
	else if (f->protocol == PLAN_TEXT_ETH_P_IPV6)
		strbuf_printf(out, " match ip6 priority 0x%02x 0x%02x", tos,
		              mask);
	else
		return false;
	return true;
}

static bool plan_text_flower_match(struct strbuf *out,
                                   const struct plan_filter *f)
{
	bool vlan = f->protocol == PLAN_TEXT_ETH_P_8021Q ||
	            f->protocol == PLAN_TEXT_ETH_P_8021AD;

	if (f->match_pcp) {
		if (!vlan)
			return false;
		strbuf_printf(out, " vlan_prio %u", f->pcp);
	}
	if (f->match_dscp) {
		if (vlan) {
			if (!f->vlan_ethtype)
				return false;
			strbuf_puts(out, " vlan_ethtype ");
			plan_text_protocol(out, f->vlan_ethtype);
		} else if (f->protocol != PLAN_TEXT_ETH_P_IP &&
		           f->protocol != PLAN_TEXT_ETH_P_IPV6) {
			return false;
		}
		strbuf_printf(out, " ip_tos 0x%02x/0x%02x",
		              (unsigned)(f->dscp & 0x3f) << 2,
		              (unsigned)(f->dscp_mask & 0x3f) << 2);
	}
	return true;
}

/* A classic BPF program as tc's `bytecode` takes it (and prints it):
 * 'N,CODE JT JF K,...' in decimal. */
static bool plan_text_bpf_match(struct strbuf *out, const struct plan_filter *f)
{
	if (!f->bpf_len || f->bpf_len > PLAN_BPF_MAX)
		return false;
	strbuf_printf(out, " bytecode '%u", f->bpf_len);
	for (unsigned i = 0; i < f->bpf_len; i++)
		strbuf_printf(out, ",%u %u %u %u", f->bpf[i].code, f->bpf[i].jt,
		              f->bpf[i].jf, f->bpf[i].k);
	strbuf_puts(out, "'");
	return true;
}

static void plan_text_filter(struct plan_text_ctx *c,
                             const struct plan_filter *f)
{
	struct strbuf *out = c->out;
	struct strbuf line;
	bool ok;

	strbuf_init(&line);
	strbuf_printf(&line, "filter add dev %s", c->pp->ifname);
	plan_text_parent(&line, f->parent);
	strbuf_puts(&line, " protocol ");
	plan_text_protocol(&line, f->protocol);
	strbuf_printf(&line, " prio %u %s", f->prio,
	              plan_filter_kind_name(f->kind));
	if (f->kind == PLAN_FILTER_U32)
		ok = plan_text_u32_match(&line, f);
	else if (f->kind == PLAN_FILTER_BPF)
		ok = plan_text_bpf_match(&line, f);
	else
		ok = plan_text_flower_match(&line, f);
	if (f->action == PLAN_ACT_CLASSID) {
		strbuf_puts(&line, " classid ");
		plan_text_handle(&line, f->classid);
	} else {
		strbuf_puts(&line, " action skbedit priority ");
		plan_text_skb_priority(&line, f->priority);
	}
	if (line.oom)
		out->oom = true;
	if (ok) {
		strbuf_puts(out, strbuf_str(&line));
		strbuf_puts(out, "\n");
	} else if (c->comments) {
		/* The plan asked for a match this classifier cannot express:
		 * say so rather than print a line tc would reject. */
		plan_text_comment(out,
		                  "warning: %s cannot express class %s "
		                  "(protocol 0x%04x%s%s), filter prio %u left "
		                  "out",
		                  plan_filter_kind_name(f->kind), f->class_name,
		                  f->protocol, f->match_dscp ? ", dscp" : "",
		                  f->match_pcp ? ", pcp" : "", f->prio);
	}
	strbuf_free(&line);
}

static bool plan_text_has_class(const struct plan_port *pp, uint32_t id)
{
	for (size_t i = 0; i < pp->nclasses; i++)
		if (pp->classes[i].classid == id)
			return true;
	return false;
}

/* Is PARENT an object of NODE's? NODE is a qdisc handle (minor 0) or a
 * class id. A qdisc owns the classes it creates itself (ets, prio bands),
 * which the plan does not list. */
static bool plan_text_child_of(const struct plan_port *pp, uint32_t parent,
                               uint32_t node, bool node_is_qdisc)
{
	if (!node_is_qdisc)
		return parent == node;
	if (PLAN_H_MAJ(parent) != PLAN_H_MAJ(node))
		return false;
	return PLAN_H_MIN(parent) == 0 || !plan_text_has_class(pp, parent);
}

static void plan_text_children(struct plan_text_ctx *c, uint32_t node,
                               bool node_is_qdisc);

static void plan_text_emit_qdisc(struct plan_text_ctx *c, size_t i)
{
	const struct plan_qdisc *q = &c->pp->qdiscs[i];

	c->qd_done[i] = true;
	plan_text_qdisc(c, q);
	if (q->kind != PLAN_QD_CLSACT)
		plan_text_children(c, q->handle, true);
}

static void plan_text_emit_class(struct plan_text_ctx *c, size_t i)
{
	c->cl_done[i] = true;
	plan_text_class(c, &c->pp->classes[i]);
	plan_text_children(c, c->pp->classes[i].classid, false);
}

/* Depth first, so that each object follows its parent and a queue's class
 * and leaf qdisc stay together. */
static void plan_text_children(struct plan_text_ctx *c, uint32_t node,
                               bool node_is_qdisc)
{
	const struct plan_port *pp = c->pp;

	for (size_t i = 0; i < pp->nclasses; i++)
		if (!c->cl_done[i] &&
		    plan_text_child_of(pp, pp->classes[i].parent, node,
		                       node_is_qdisc))
			plan_text_emit_class(c, i);
	for (size_t i = 0; i < pp->nqdiscs; i++)
		if (!c->qd_done[i] && pp->qdiscs[i].parent != PLAN_H_ROOT &&
		    pp->qdiscs[i].kind != PLAN_QD_CLSACT &&
		    plan_text_child_of(pp, pp->qdiscs[i].parent, node,
		                       node_is_qdisc))
			plan_text_emit_qdisc(c, i);
}

static void plan_text_tc(const struct plan_port *pp, struct strbuf *out,
                         bool comments)
{
	struct plan_text_ctx c = {
	    .pp = pp,
	    .out = out,
	    .comments = comments,
	    .last_queue = -1,
	};
	const char *last_class = NULL;

	c.qd_done = calloc(pp->nqdiscs + 1, sizeof(bool));
	c.cl_done = calloc(pp->nclasses + 1, sizeof(bool));
	if (!c.qd_done || !c.cl_done) {
		out->oom = true;
		goto out;
	}
	for (size_t i = 0; i < pp->nqdiscs; i++)
		if (!c.qd_done[i] && (pp->qdiscs[i].parent == PLAN_H_ROOT ||
		                      pp->qdiscs[i].kind == PLAN_QD_CLSACT))
			plan_text_emit_qdisc(&c, i);
	/* Objects whose parent the plan does not hold: written last, in
	 * plan order, for tc to judge. */
	for (size_t i = 0; i < pp->nclasses; i++)
		if (!c.cl_done[i]) {
			if (comments)
				plan_text_comment(
				    out,
				    "warning: the parent of "
				    "class %x:%x is not in the "
				    "plan",
				    PLAN_H_MAJ(pp->classes[i].classid),
				    PLAN_H_MIN(pp->classes[i].classid));
			plan_text_emit_class(&c, i);
		}
	for (size_t i = 0; i < pp->nqdiscs; i++)
		if (!c.qd_done[i]) {
			if (comments)
				plan_text_comment(
				    out,
				    "warning: the parent of "
				    "qdisc %x: is not in the plan",
				    PLAN_H_MAJ(pp->qdiscs[i].handle));
			plan_text_emit_qdisc(&c, i);
		}
	for (size_t i = 0; i < pp->nfilters; i++) {
		const struct plan_filter *f = &pp->filters[i];

		if (comments && f->kind == PLAN_FILTER_BPF) {
			/* one program for every class of the policy */
			plan_text_comment(out,
			                  "qos policy %s: one cls_bpf program "
			                  "returns the class of the first "
			                  "class-map that matches, else -1 "
			                  "(class-default)",
			                  f->class_name);
			last_class = NULL;
		} else if (comments &&
		           (!last_class || strcmp(last_class, f->class_name))) {
			plan_text_comment(out, "class-map %s: qos-group %u",
			                  f->class_name[0] ? f->class_name
			                                   : "(none)",
			                  f->qos_group);
			last_class = f->class_name;
		}
		plan_text_filter(&c, f);
	}
out:
	free(c.qd_done);
	free(c.cl_done);
}

static const char *plan_text_tsa_name(uint8_t tsa)
{
	switch (tsa) {
	case IEEE_8021QAZ_TSA_STRICT:
		return "strict";
	case IEEE_8021QAZ_TSA_CB_SHAPER:
		return "cbs";
	case IEEE_8021QAZ_TSA_ETS:
		return "ets";
	case IEEE_8021QAZ_TSA_VENDOR:
		return "vendor";
	}
	return NULL;
}

static const char *plan_text_sel_name(uint8_t sel)
{
	switch (sel) {
	case IEEE_8021QAZ_APP_SEL_ETHERTYPE:
		return "ethtype";
	case IEEE_8021QAZ_APP_SEL_STREAM:
		return "stream-port";
	case IEEE_8021QAZ_APP_SEL_DGRAM:
		return "dgram-port";
	case IEEE_8021QAZ_APP_SEL_ANY:
		return "port";
	case IEEE_8021QAZ_APP_SEL_DSCP:
		return "dscp";
	case PLAN_APP_SEL_PCP:
		return "pcp";
	}
	return NULL;
}

/* One "app add" line per selector, in this order: with `dcb -f -b` an
 * iproute2 too old for pcp-prio still takes the DSCP line. The ethertype
 * selector's protocol 0 is the port default priority. */
static const uint8_t plan_text_app_order[] = {
    IEEE_8021QAZ_APP_SEL_DSCP,   IEEE_8021QAZ_APP_SEL_ETHERTYPE,
    IEEE_8021QAZ_APP_SEL_STREAM, IEEE_8021QAZ_APP_SEL_DGRAM,
    IEEE_8021QAZ_APP_SEL_ANY,    PLAN_APP_SEL_PCP,
};

static void plan_text_app_entry(struct strbuf *out, const struct plan_app *a)
{
	switch (a->selector) {
	case PLAN_APP_SEL_ETHERTYPE:
		strbuf_printf(out, " 0x%04x:%u", a->protocol, a->priority);
		break;
	case PLAN_APP_SEL_PCP:
		/* Protocol 0-7 is PCP with DEI 0, 8-15 with DEI 1. */
		if (a->protocol < 16)
			strbuf_printf(out, " %u%s:%u", a->protocol & 7u,
			              a->protocol & 8u ? "de" : "nd",
			              a->priority);
		else
			strbuf_printf(out, " %u:%u", a->protocol, a->priority);
		break;
	default:
		strbuf_printf(out, " %u:%u", a->protocol, a->priority);
		break;
	}
}

static void plan_text_app(const struct plan_port *pp, struct strbuf *out,
                          const char *prefix)
{
	const struct plan_dcb *d = &pp->dcb;

	for (size_t k = 0; k < sizeof(plan_text_app_order); k++) {
		uint8_t sel = plan_text_app_order[k];
		bool dflt = sel == PLAN_APP_SEL_ETHERTYPE;
		bool any = false;

		/* default-prio: ethertype selector, protocol 0 */
		for (size_t i = 0; dflt && i < d->napp; i++) {
			if (d->app[i].selector != sel || d->app[i].protocol)
				continue;
			if (!any)
				strbuf_printf(out,
				              "%sapp add dev %s default-prio",
				              prefix, pp->ifname);
			any = true;
			strbuf_printf(out, " %u", d->app[i].priority);
		}
		if (any)
			strbuf_puts(out, "\n");
		any = false;
		for (size_t i = 0; i < d->napp; i++) {
			if (d->app[i].selector != sel ||
			    (dflt && !d->app[i].protocol))
				continue;
			if (!any)
				strbuf_printf(out, "%sapp add dev %s %s-prio",
				              prefix, pp->ifname,
				              plan_text_sel_name(sel));
			any = true;
			plan_text_app_entry(out, &d->app[i]);
		}
		if (any)
			strbuf_puts(out, "\n");
	}
}

static bool plan_text_has_ets(const struct plan_port *pp)
{
	const struct plan_dcb *d = &pp->dcb;

	if (pp->layout != PLAN_LAYOUT_NONE)
		return true;
	for (int i = 0; i < 8; i++)
		if (d->ets_tsa[i] || d->ets_bw[i] || d->prio_tc[i])
			return true;
	return false;
}

static void plan_text_dcb(const struct plan_port *pp, struct strbuf *out,
                          const char *prefix)
{
	const struct plan_dcb *d = &pp->dcb;

	strbuf_printf(out, "%spfc set dev %s prio-pfc", prefix, pp->ifname);
	for (int i = 0; i < 8; i++)
		strbuf_printf(out, " %d:%s", i,
		              d->pfc_en & (1u << i) ? "on" : "off");
	strbuf_puts(out, "\n");
	if (plan_text_has_ets(pp)) {
		strbuf_printf(out, "%sets set dev %s tc-tsa", prefix,
		              pp->ifname);
		for (int i = 0; i < 8; i++) {
			const char *n = plan_text_tsa_name(d->ets_tsa[i]);

			if (n)
				strbuf_printf(out, " %d:%s", i, n);
			else
				strbuf_printf(out, " %d:%u", i, d->ets_tsa[i]);
		}
		strbuf_puts(out, " tc-bw");
		for (int i = 0; i < 8; i++)
			strbuf_printf(out, " %d:%u", i, d->ets_bw[i]);
		strbuf_puts(out, " prio-tc");
		for (int i = 0; i < 8; i++)
			strbuf_printf(out, " %d:%u", i, d->prio_tc[i]);
		strbuf_puts(out, "\n");
	}
	plan_text_app(pp, out, prefix);
	if (d->ntrust) {
		strbuf_printf(out, "%sapptrust set dev %s order", prefix,
		              pp->ifname);
		for (size_t i = 0; i < d->ntrust && i < 2; i++) {
			const char *n = plan_text_sel_name(d->trust[i]);

			if (n)
				strbuf_printf(out, " %s", n);
			else
				strbuf_printf(out, " %u", d->trust[i]);
		}
		strbuf_puts(out, "\n");
	}
}

/* Link pause as the ethtool command that sets it. */
static void plan_text_pause(const struct plan_port *pp, struct strbuf *out)
{
	const struct plan_dcb *d = &pp->dcb;

	if (!d->pause_managed || (d->software && !d->pause_rx && !d->pause_tx))
		return;
	if (d->software)
		plan_text_comment(out,
		                  "link pause rx %s tx %s: software port, "
		                  "roced's frame layer honours and sends it",
		                  d->pause_rx ? "on" : "off",
		                  d->pause_tx ? "on" : "off");
	else
		strbuf_printf(out, "#ethtool -A %s rx %s tx %s\n", pp->ifname,
		              d->pause_rx ? "on" : "off",
		              d->pause_tx ? "on" : "off");
}

static void plan_text_mask(char *buf, size_t len, uint8_t mask)
{
	if (!mask || policy_list_format(mask, buf, len) < 0)
		snprintf(buf, len, "none");
}

/* The watchdog and the times it follows on the port, as compile resolved
 * them: a change of one (a port's own shutdown-multiplier) is a line a
 * reload's dry run shows. */
static void plan_text_watchdog(const struct plan_port *pp, struct strbuf *out)
{
	const struct plan_wd *w = &pp->wd;
	char fixed[32];

	if (!pp->watchdog) {
		plan_text_comment(out, "pfc watchdog off");
		return;
	}
	snprintf(fixed, sizeof(fixed), "%u ms", (unsigned)w->fixed_restore_ms);
	plan_text_comment(out,
	                  "pfc watchdog on: poll %u ms, storm after %u ms, "
	                  "auto-restore after %u ms, fixed-restore %s, "
	                  "action %s%s",
	                  (unsigned)w->poll_ms, (unsigned)w->detect_ms,
	                  (unsigned)w->auto_restore_ms,
	                  w->fixed_restore_ms ? fixed : "none",
	                  policy_pfcwd_action_name(w->action),
	                  w->internal ? " (fabric-internal times)" : "");
}

static void plan_text_port_header(const struct plan_port *pp,
                                  struct strbuf *out, bool warnings)
{
	const struct plan_dcb *d = &pp->dcb;
	char en[32], admin[32];

	if (pp->alias[0])
		plan_text_comment(out, "port %s (%s)", pp->ifname, pp->alias);
	else
		plan_text_comment(out, "port %s", pp->ifname);
	if (pp->caps.speed_mbps)
		plan_text_comment(out, "link speed %llu Mb/s",
		                  (unsigned long long)pp->caps.speed_mbps);
	else
		plan_text_comment(out, "link speed unknown");
	if (d->software)
		plan_text_comment(out,
		                  "dcb: software (no dcbnl): roced realises "
		                  "the #dcb part itself, APP and trust as the "
		                  "tc classification below, ETS as the qdisc "
		                  "tree, PFC with its own pause frames; the "
		                  "#dcb lines are for reference");
	else
		plan_text_comment(out,
		                  "dcb: hardware (dcbnl): roced sets the #dcb "
		                  "part in the driver");
	plan_text_comment(out, "layout %s", plan_layout_name(pp->layout));
	plan_text_comment(out,
	                  "qos policy %s (input), queuing policy %s "
	                  "(output)",
	                  pp->qos_policy[0] ? pp->qos_policy : "none",
	                  pp->queuing_policy[0] ? pp->queuing_policy : "none");
	plan_text_mask(en, sizeof(en), d->pfc_en);
	plan_text_mask(admin, sizeof(admin), d->pfc_admin);
	if (pp->pfc_awaiting_dcbx)
		plan_text_comment(out,
		                  "pfc mode %s, no-drop priorities %s: "
		                  "waiting for a DCBX agreement, PFC enabled "
		                  "on %s until then",
		                  policy_pfc_mode_name(pp->pfc_mode), admin,
		                  en);
	else
		plan_text_comment(out,
		                  "pfc mode %s, no-drop priorities %s, PFC "
		                  "enabled on %s",
		                  policy_pfc_mode_name(pp->pfc_mode), admin,
		                  en);
	if (d->pfc_rx_only) {
		plan_text_mask(en, sizeof(en), d->pfc_rx_only);
		plan_text_comment(out,
		                  "pfc receive-only on %s: pause received is "
		                  "honoured, none is sent",
		                  en);
	}
	if (pp->pfc_path != PLAN_PFC_PATH_NONE)
		plan_text_comment(out, "pause received honoured by %s: %s",
		                  pp->pfc_path == PLAN_PFC_PATH_KERNEL
		                      ? "the kernel (BPF, no process)"
		                      : "roced's process (held tbf)",
		                  pp->pfc_path_why);
	plan_text_watchdog(pp, out);
	if (warnings)
		plan_text_diag(out, &pp->warnings);
}

static void plan_text_port(const struct plan_port *pp, struct strbuf *out,
                           bool warnings)
{
	plan_text_port_header(pp, out, warnings);
	if (pp->dcb.mtu)
		strbuf_printf(out, "#ip link set dev %s mtu %u\n", pp->ifname,
		              pp->dcb.mtu);
	plan_text_dcb(pp, out, "#dcb ");
	plan_text_pause(pp, out);
	plan_text_tc(pp, out, true);
}

void plan_text_write(const struct plan *pl, struct strbuf *out)
{
	plan_text_comment(out, "roced dry run: the plan as iproute2 commands");
	plan_text_comment(out, "objects are added, not replaced: replay on "
	                       "ports that hold none of them yet");
	plan_text_comment(out, "  tc -batch FILE");
	plan_text_comment(out, "  sed -n 's/^#ip //p' FILE | ip -batch -");
	plan_text_comment(out, "  sed -n 's/^#dcb //p' FILE | dcb -f -b -");
	plan_text_comment(out, "dcb \"app ... pcp-prio\" and \"apptrust\" need "
	                       "iproute2 6.2 or later");
	plan_text_diag(out, &pl->diag);
	for (size_t i = 0; i < pl->nports; i++) {
		strbuf_puts(out, "\n");
		plan_text_port(&pl->ports[i], out, true);
	}
}

void plan_text_write_port(const struct plan_port *pp, struct strbuf *out)
{
	plan_text_port(pp, out, false);
}

void plan_text_write_tc(const struct plan_port *pp, struct strbuf *out)
{
	plan_text_tc(pp, out, false);
}

void plan_text_write_dcb(const struct plan_port *pp, struct strbuf *out)
{
	plan_text_dcb(pp, out, "");
}
