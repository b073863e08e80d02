/* Unit tests of lib/model/policy.c and lib/model/policy_list.c: value lists,
 * name tables, lookups, deep copy, and policy_validate() on policies built in
 * code (the CLI's path, without a config file). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "model/policy.h"

static uint64_t parse_ok(const char *s, unsigned max, bool names)
{
	char err[128] = "";
	uint64_t m = 0;

	if (policy_list_parse(s, max, names, &m, err, sizeof(err)) != 0)
		fail_msg("'%s' did not parse: %s", s, err);
	return m;
}

static void parse_bad(const char *s, unsigned max, bool names,
                      const char *needle)
{
	char err[128] = "";
	uint64_t m = 0;

	assert_int_equal(policy_list_parse(s, max, names, &m, err, sizeof(err)),
	                 -1);
	if (!strstr(err, needle))
		fail_msg("'%s': error '%s' lacks '%s'", s ? s : "(null)", err,
		         needle);
	assert_int_equal(m, 0); /* a failed parse leaves the mask alone */
}

static void test_list_parse(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("3", 7, false), 1u << 3);
	assert_int_equal(parse_ok("0-2,5", 7, false), 0x27);
	assert_int_equal(parse_ok("7, 0", 7, false), 0x81);
	assert_int_equal(parse_ok("0-7", 7, false), 0xff);
	assert_true(parse_ok("0-63", 63, true) == UINT64_MAX);
	assert_true(parse_ok("63", 63, false) == 1ULL << 63);

	parse_bad("8", 7, false, "'8'");
	parse_bad("3-1", 7, false, "'3-1'");
	parse_bad("2-9", 7, false, "0-7");
	parse_bad("", 7, false, "empty");
	parse_bad(NULL, 7, false, "empty");
	parse_bad("x", 7, false, "'x'");
	parse_bad("3-", 7, false, "'3-'");
	parse_bad("-3", 7, false, "'-3'");
	parse_bad("1-2-3", 7, false, "1-2-3");
	parse_bad("99999999999999999999", 63, false, "invalid value");
	/* Names are DSCP only. */
	parse_bad("af31", 7, false, "'af31'");
}

static void test_list_accumulates(void **state)
{
	char err[64];
	uint64_t m = 1;

	(void)state;
	assert_int_equal(policy_list_parse("3", 7, false, &m, err, sizeof(err)),
	                 0);
	assert_int_equal(m, 0x9);
}

static void test_list_format(void **state)
{
	char buf[256];

	(void)state;
	assert_int_equal(policy_list_format(0x27, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "0-2,5");
	policy_list_format(0, buf, sizeof(buf));
	assert_string_equal(buf, "");
	policy_list_format(1ULL << 63, buf, sizeof(buf));
	assert_string_equal(buf, "63");
	policy_list_format(UINT64_MAX, buf, sizeof(buf));
	assert_string_equal(buf, "0-63");
	policy_list_format(0x5555555555555555ULL, buf, sizeof(buf));
	assert_int_equal(strncmp(buf, "0,2,4,6,", 8), 0);
	/* Too small a buffer: truncated, NUL-terminated, full length back. */
	assert_int_equal(policy_list_format(0x27, buf, 3), 5);
	assert_string_equal(buf, "0-");
	assert_int_equal(policy_list_format(0x27, NULL, 0), 5);
}

/* format -> parse gives the same set, for many sets. */
static void test_list_round_trip(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char buf[256];

	(void)state;
	for (int i = 0; i < 2000; i++) {
		uint64_t m;

		/* xorshift: varied masks, with runs and singletons */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		m = i % 3 ? x : x & (x >> 1) & (x >> 2);
		if (!m)
			continue;
		policy_list_format(m, buf, sizeof(buf));
		assert_true(parse_ok(buf, 63, false) == m);
		assert_true(parse_ok(buf, 63, true) == m);
	}
}

static void test_dscp_names(void **state)
{
	(void)state;
	assert_int_equal(policy_dscp_parse("af31"), 26);
	assert_int_equal(policy_dscp_parse("AF31"), 26);
	assert_int_equal(policy_dscp_parse("ef"), 46);
	assert_int_equal(policy_dscp_parse("cs3"), 24);
	assert_int_equal(policy_dscp_parse("cs0"), 0);
	assert_int_equal(policy_dscp_parse("default"), 0);
	assert_int_equal(policy_dscp_parse("63"), 63);
	assert_int_equal(policy_dscp_parse("64"), -1);
	assert_int_equal(policy_dscp_parse("af44"), -1);
	assert_int_equal(policy_dscp_parse(""), -1);
	assert_string_equal(policy_dscp_name(26), "af31");
	assert_string_equal(policy_dscp_name(46), "ef");
	assert_string_equal(policy_dscp_name(0), "default");
	assert_null(policy_dscp_name(27));
	/* Every name maps back to itself. */
	for (unsigned v = 0; v < 64; v++) {
		const char *n = policy_dscp_name(v);

		if (n)
			assert_int_equal(policy_dscp_parse(n), v);
	}
	/* Names and ranges of names in lists. */
	assert_true(parse_ok("af31,ef,cs3", 63, true) ==
	            ((1ULL << 26) | (1ULL << 46) | (1ULL << 24)));
	assert_true(parse_ok("cs3-af31", 63, true) == (7ULL << 24));
}

static void test_queue_names(void **state)
{
	(void)state;
	assert_int_equal(policy_queue_parse("c-out-8q-q3"), 3);
	assert_int_equal(policy_queue_parse("c-out-8q-q7"), 7);
	assert_int_equal(policy_queue_parse("c-out-8q-q-default"), 0);
	assert_int_equal(policy_queue_parse("c-out-8q-q0"), 0);
	assert_int_equal(policy_queue_parse("c-out-8q-q8"), -1);
	assert_int_equal(policy_queue_parse("c-out-4q-q3"), -1);
	assert_int_equal(policy_queue_parse("c-out-8q-q"), -1);
	assert_int_equal(policy_queue_parse(NULL), -1);
	assert_string_equal(policy_queue_name(0), "c-out-8q-q-default");
	assert_string_equal(policy_queue_name(5), "c-out-8q-q5");
	assert_string_equal(policy_queue_name(8), "?");
	for (unsigned q = 0; q < POLICY_NQUEUES; q++)
		assert_int_equal(policy_queue_parse(policy_queue_name(q)), q);
}

static void test_pfc_mode_names(void **state)
{
	(void)state;
	assert_int_equal(policy_pfc_mode_parse("auto"), POLICY_PFC_AUTO);
	assert_int_equal(policy_pfc_mode_parse("on"), POLICY_PFC_ON);
	assert_int_equal(policy_pfc_mode_parse("off"), POLICY_PFC_OFF);
	assert_int_equal(policy_pfc_mode_parse("enabled"), -1);
	assert_string_equal(policy_pfc_mode_name(POLICY_PFC_ON), "on");
	assert_string_equal(policy_pfc_mode_name((enum policy_pfc_mode)7), "?");
}

/* The reference policy, built the way rocesh builds it. */
static void build_roce(struct policy *p)
{
	struct policy_class_qos *c;
	struct policy_map_qos *mq;
	struct policy_qos_rule *r;
	struct policy_map_queuing *mu;
	struct policy_class_nq *cn;
	struct policy_map_nq *mn;
	struct policy_nq_rule *nr;
	struct policy_iface *i;

	policy_init(p);
	c = policy_add_class_qos(p, "ROCE_CLASS");
	c->cos = 1u << 3;
	c->dscp = 1ULL << 26;
	mq = policy_add_map_qos(p, "ROCE_POLICY");
	r = policy_map_qos_add_rule(mq, "ROCE_CLASS");
	r->set_qos_group = true;
	r->qos_group = 3;
	mu = policy_add_map_queuing(p, "ROCE_QUEUING_OUT");
	mu->queue[3].configured = mu->queue[0].configured = true;
	mu->queue[3].has_bandwidth = mu->queue[0].has_bandwidth = true;
	mu->queue[3].bandwidth_percent = mu->queue[0].bandwidth_percent = 50;
	mu->queue[3].wred.enabled = true;
	mu->queue[3].wred.min_bytes = 150 * 1024;
	mu->queue[3].wred.max_bytes = 3000 * 1024;
	mu->queue[3].wred.drop_probability = 7;
	mu->queue[3].wred.ecn = true;
	cn = policy_add_class_nq(p, "ROCE_NETWORK_CLASS");
	cn->qos_groups = 1u << 3;
	mn = policy_add_map_nq(p, "ROCE_NETWORK_POLICY");
	nr = policy_map_nq_add_rule(mn, "ROCE_NETWORK_CLASS");
	nr->pfc_cos = 1u << 3;
	nr->mtu = 9216;
	nr = policy_map_nq_add_rule(mn, POLICY_NQ_DEFAULT);
	nr->mtu = 9216;
	snprintf(p->system.network_qos, sizeof(p->system.network_qos), "%s",
	         "ROCE_NETWORK_POLICY");
	i = policy_add_iface(p, "swp1");
	snprintf(i->alias, sizeof(i->alias), "%s", "Ethernet1/1");
	snprintf(i->qos_input, sizeof(i->qos_input), "%s", "ROCE_POLICY");
	snprintf(i->queuing_output, sizeof(i->queuing_output), "%s",
	         "ROCE_QUEUING_OUT");
	i->pfc_mode = POLICY_PFC_ON;
	i = policy_add_iface(p, "swp2");
	assert_int_equal(i->pfc_mode, POLICY_PFC_AUTO);
	assert_int_equal(i->watchdog, POLICY_INHERIT);
}

static void test_defaults(void **state)
{
	struct policy p;

	(void)state;
	policy_init(&p);
	assert_int_equal(p.pfcwd.poll_ms, 100);
	assert_int_equal(p.pfcwd.shutdown_mult, 1);
	assert_int_equal(p.pfcwd.auto_restore_mult, 10);
	assert_int_equal(p.pfcwd.fixed_restore_mult, 0);
	assert_int_equal(p.pfcwd.internal_if_mult, 2);
	assert_false(p.pfcwd.enabled);
	policy_free(&p);
}

static void test_find(void **state)
{
	struct policy p;

	(void)state;
	build_roce(&p);
	assert_ptr_equal(policy_find_iface(&p, "swp1"), &p.ifaces[0]);
	assert_ptr_equal(policy_find_iface(&p, "Ethernet1/1"), &p.ifaces[0]);
	assert_ptr_equal(policy_find_iface(&p, "ethernet1/1"), &p.ifaces[0]);
	assert_ptr_equal(policy_find_iface(&p, "swp2"), &p.ifaces[1]);
	/* Linux names are case-sensitive. */
	assert_null(policy_find_iface(&p, "SWP1"));
	assert_null(policy_find_iface(&p, "Ethernet1/2"));
	assert_null(policy_find_iface(&p, NULL));
	/* swp2 has no alias: an empty name must not match it. */
	assert_null(policy_find_iface(&p, ""));
	assert_non_null(policy_find_class_qos(&p, "ROCE_CLASS"));
	assert_null(policy_find_class_qos(&p, "roce_class"));
	assert_non_null(policy_find_map_qos(&p, "ROCE_POLICY"));
	assert_non_null(policy_find_map_queuing(&p, "ROCE_QUEUING_OUT"));
	assert_null(policy_find_map_queuing(&p, "ROCE_POLICY"));
	assert_non_null(policy_find_class_nq(&p, "ROCE_NETWORK_CLASS"));
	assert_non_null(policy_find_map_nq(&p, "ROCE_NETWORK_POLICY"));
	assert_null(policy_find_map_nq(&p, NULL));
	policy_free(&p);
}

static void test_iface_defaults(void **state)
{
	struct policy p;

	(void)state;
	build_roce(&p);
	/* swp1 names its own; swp2 falls back to system qos, then none. */
	assert_ptr_equal(policy_iface_qos(&p, &p.ifaces[0]), &p.map_qos[0]);
	assert_null(policy_iface_qos(&p, &p.ifaces[1]));
	snprintf(p.system.qos_input, sizeof(p.system.qos_input), "%s",
	         "ROCE_POLICY");
	snprintf(p.system.queuing_output, sizeof(p.system.queuing_output), "%s",
	         "ROCE_QUEUING_OUT");
	assert_ptr_equal(policy_iface_qos(&p, &p.ifaces[1]), &p.map_qos[0]);
	assert_ptr_equal(policy_iface_queuing(&p, &p.ifaces[1]),
	                 &p.map_queuing[0]);
	assert_ptr_equal(policy_iface_queuing(&p, NULL), &p.map_queuing[0]);

	assert_false(policy_iface_watchdog(&p, &p.ifaces[0]));
	p.pfcwd.enabled = true;
	assert_true(policy_iface_watchdog(&p, &p.ifaces[0]));
	p.ifaces[0].watchdog = POLICY_OFF;
	assert_false(policy_iface_watchdog(&p, &p.ifaces[0]));
	p.pfcwd.enabled = false;
	p.ifaces[1].watchdog = POLICY_ON;
	assert_true(policy_iface_watchdog(&p, &p.ifaces[1]));
	policy_free(&p);
}

static void test_copy_is_deep(void **state)
{
	struct policy p, q;

	(void)state;
	build_roce(&p);
	assert_int_equal(policy_copy(&q, &p), 0);
	assert_int_equal(q.nclass_qos, 1);
	assert_int_equal(q.nmap_qos, 1);
	assert_int_equal(q.nmap_nq, 1);
	assert_int_equal(q.nifaces, 2);
	assert_ptr_not_equal(q.class_qos, p.class_qos);
	assert_ptr_not_equal(q.map_qos, p.map_qos);
	assert_ptr_not_equal(q.map_qos[0].rules, p.map_qos[0].rules);
	assert_ptr_not_equal(q.map_nq[0].rules, p.map_nq[0].rules);
	assert_ptr_not_equal(q.map_queuing, p.map_queuing);
	assert_ptr_not_equal(q.ifaces, p.ifaces);
	assert_string_equal(q.system.network_qos, "ROCE_NETWORK_POLICY");

	/* Changing or freeing the source leaves the copy intact. */
	p.map_qos[0].rules[0].qos_group = 5;
	p.map_nq[0].rules[0].mtu = 1500;
	p.map_queuing[0].queue[3].wred.max_bytes = 1;
	p.ifaces[0].alias[0] = '\0';
	policy_free(&p);
	assert_int_equal(q.map_qos[0].rules[0].qos_group, 3);
	assert_int_equal(q.map_nq[0].rules[0].mtu, 9216);
	assert_int_equal(q.map_nq[0].nrules, 2);
	assert_int_equal(q.map_queuing[0].queue[3].wred.max_bytes, 3000 * 1024);
	assert_string_equal(q.ifaces[0].alias, "Ethernet1/1");
	assert_ptr_equal(policy_find_iface(&q, "ethernet1/1"), &q.ifaces[0]);
	policy_free(&q);
}

static void test_copy_empty(void **state)
{
	struct policy p, q;

	(void)state;
	policy_init(&p);
	assert_int_equal(policy_copy(&q, &p), 0);
	assert_null(q.class_qos);
	assert_int_equal(q.pfcwd.poll_ms, 100);
	policy_free(&q);
	policy_free(&p);
}

/* True if D holds an error containing NEEDLE. */
static bool has_error(const struct diag *d, const char *needle)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].sev == DIAG_ERROR && strstr(d->v[i].text, needle))
			return true;
	return false;
}

/* policy_validate on values only code can produce (the file loader
 * refuses them earlier). */
static void test_validate_built(void **state)
{
	struct policy p;
	struct diag d;

	(void)state;
	build_roce(&p);
	diag_init(&d, NULL);
	assert_int_equal(policy_validate(&p, &d), 0);
	assert_int_equal(d.nwarnings, 0);

	p.map_qos[0].rules[0].qos_group = 8;
	p.ifaces[1].pfc_mode = (enum policy_pfc_mode)9;
	p.ifaces[1].watchdog = (enum policy_tristate)9;
	p.class_qos[0].match = (enum policy_match)5;
	p.map_queuing[0].queue[3].priority_level = 9;
	p.map_queuing[0].queue[3].has_bandwidth = false;
	p.map_queuing[0].queue[0].bandwidth_percent = 100;
	p.map_nq[0].rules[0].mtu = 100000;
	p.pfcwd.internal_if_mult = 0;
	p.pfcwd.auto_restore_mult = 101;
	p.ifaces[0].name[0] = '\0';
	assert_int_equal(policy_validate(&p, &d), 9);
	assert_true(has_error(&d, "set-qos-group 8"));
	assert_true(has_error(&d, "invalid priority-flow-control mode of "
	                          "interface swp2"));
	assert_true(has_error(&d, "invalid watch-dog-interval"));
	assert_true(has_error(&d, "invalid match mode"));
	assert_true(has_error(&d, "priority-level 9"));
	assert_true(has_error(&d, "mtu 100000"));
	assert_true(has_error(&d, "internal-interface-multiplier 0"));
	assert_true(has_error(&d, "auto-restore-multiplier 101"));
	assert_true(has_error(&d, "invalid interface name ''"));
	/* Queue 3 is strict now, so q-default alone must be 100 - and is. */
	assert_false(has_error(&d, "adds up to"));
	assert_false(has_error(&d, "pause pfc-cos 3"));
	diag_free(&d);
	policy_free(&p);
}

/* A bond port's members (policy_bond_sync): copies of its settings,
 * marked derived, refreshed when the bond changes, removed when they
 * leave or the bond goes; a member the configuration names itself keeps
 * its own settings. */
static void test_bond_members(void **state)
{
	static const char two[][POLICY_IFNAME_MAX] = {"swp1", "swp2"};
	static const char one[][POLICY_IFNAME_MAX] = {"swp1", "swp9"};
	struct policy p;
	struct policy_iface *b, *own;
	const struct policy_iface *m;

	(void)state;
	policy_init(&p);
	b = policy_add_iface(&p, "bond10");
	assert_non_null(b);
	snprintf(b->alias, sizeof(b->alias), "port-channel10");
	b->pfc_mode = POLICY_PFC_ON;
	snprintf(b->qos_input, sizeof(b->qos_input), "Q");
	own = policy_add_iface(&p, "swp9");
	assert_non_null(own);
	own->pfc_mode = POLICY_PFC_OFF;
	assert_int_equal(policy_bond_sync(&p, "bond10", two, 2), 1);
	assert_int_equal(p.nifaces, 4);
	m = policy_find_iface(&p, "swp2");
	assert_non_null(m);
	assert_string_equal(m->bond, "bond10");
	assert_string_equal(m->alias, "");
	assert_int_equal(m->channel_group, 10);
	assert_int_equal(m->pfc_mode, POLICY_PFC_ON);
	assert_string_equal(m->qos_input, "Q");
	/* the same members again: nothing changes */
	assert_int_equal(policy_bond_sync(&p, "bond10", two, 2), 0);
	/* the bond's settings change: its members follow */
	b = (struct policy_iface *)policy_find_iface(&p, "bond10");
	b->qos_input[0] = '\0';
	assert_int_equal(policy_bond_sync(&p, "bond10", two, 2), 1);
	assert_string_equal(policy_find_iface(&p, "swp1")->qos_input, "");
	/* swp2 leaves; swp9, the configuration's own, keeps its settings */
	assert_int_equal(policy_bond_sync(&p, "bond10", one, 2), 1);
	assert_null(policy_find_iface(&p, "swp2"));
	m = policy_find_iface(&p, "swp9");
	assert_string_equal(m->bond, "");
	assert_int_equal(m->pfc_mode, POLICY_PFC_OFF);
	assert_int_equal(p.nifaces, 3);
	/* the bond is no longer configured: its members go */
	b = (struct policy_iface *)policy_find_iface(&p, "bond10");
	snprintf(b->name, sizeof(b->name), "bond11");
	assert_int_equal(policy_bond_prune(&p), 1);
	assert_null(policy_find_iface(&p, "swp1"));
	assert_int_equal(p.nifaces, 2);
	assert_int_equal(policy_bond_sync(&p, "bond10", two, 2), 0);
	assert_int_equal(p.nifaces, 2);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_list_parse),
	    cmocka_unit_test(test_list_accumulates),
	    cmocka_unit_test(test_list_format),
	    cmocka_unit_test(test_list_round_trip),
	    cmocka_unit_test(test_dscp_names),
	    cmocka_unit_test(test_queue_names),
	    cmocka_unit_test(test_pfc_mode_names),
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_find),
	    cmocka_unit_test(test_iface_defaults),
	    cmocka_unit_test(test_copy_is_deep),
	    cmocka_unit_test(test_copy_empty),
	    cmocka_unit_test(test_validate_built),
	    cmocka_unit_test(test_bond_members),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
