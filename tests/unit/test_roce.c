/* Unit tests of the one-command RoCE mode: the expansion of each mode (its
 * objects and values), the mode a policy's objects make once edited,
 * `roce` and `no roce` in rocesh with show running-config and its round
 * trip, `roce = "MODE";` in roced.conf (what the file defines wins, the
 * writer's round trip, a bad mode), and semi-lossless through compile:
 * receive-only on a software port, lossy with a warning on a hardware
 * one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_session.h"
#include "conf/conf.h"
#include "policy_eq.h"
#include "tcomp.h"

static void expand(struct policy *p, enum policy_roce_mode m)
{
	policy_init(p);
	assert_int_equal(policy_roce_expand(p, m, POLICY_ROCE_REPLACE, 0), 0);
}

static const struct policy_nq_rule *nq3(const struct policy *p)
{
	const struct policy_map_nq *m = policy_find_map_nq(p, POLICY_ROCE_NQ);

	assert_non_null(m);
	assert_int_equal(m->nrules, 1);
	assert_string_equal(m->rules[0].class_name, "c-8q-nq3");
	return &m->rules[0];
}

/* ---- the expansion ---- */

static void test_expand_lossless(void **state)
{
	const struct policy_class_qos *c;
	const struct policy_map_qos *mq;
	const struct policy_map_queuing *mu;
	struct policy p;
	struct diag d;
	uint32_t edited = 1;

	(void)state;
	expand(&p, POLICY_ROCE_LOSSLESS);
	c = policy_find_class_qos(&p, POLICY_ROCE_CLASS);
	assert_non_null(c);
	assert_int_equal(c->cos, 1u << 3);
	assert_true(c->dscp == UINT64_C(1) << 26);
	assert_int_equal(c->match, POLICY_MATCH_ANY);
	c = policy_find_class_qos(&p, POLICY_ROCE_CNP);
	assert_non_null(c);
	assert_int_equal(c->cos, 1u << 6);
	assert_true(c->dscp == UINT64_C(1) << 48);
	mq = policy_find_map_qos(&p, POLICY_ROCE_QOS);
	assert_non_null(mq);
	assert_int_equal(mq->nrules, 2);
	assert_int_equal(mq->rules[0].qos_group, 3);
	assert_int_equal(mq->rules[1].qos_group, 6);
	mu = policy_own_map_queuing(&p, POLICY_ROCE_QUEUING);
	assert_non_null(mu);
	assert_int_equal(mu->queue[6].priority_level, 1);
	assert_int_equal(mu->queue[3].bandwidth_percent, 50);
	assert_int_equal(mu->queue[0].bandwidth_percent, 50);
	assert_true(mu->queue[3].wred.enabled && mu->queue[3].wred.ecn);
	assert_true(mu->queue[3].wred.min_bytes == 150 * 1024);
	assert_true(mu->queue[3].wred.max_bytes == 1500 * 1024);
	assert_false(mu->queue[6].wred.enabled);
	assert_int_equal(nq3(&p)->pfc_cos, 1u << 3);
	assert_false(nq3(&p)->pfc_rx_only);
	assert_int_equal(nq3(&p)->mtu, 9216);
	assert_string_equal(p.system.network_qos, POLICY_ROCE_NQ);
	assert_string_equal(p.system.qos_input, POLICY_ROCE_QOS);
	assert_string_equal(p.system.queuing_output, POLICY_ROCE_QUEUING);
	assert_int_equal(policy_roce_mode(&p, &edited), POLICY_ROCE_LOSSLESS);
	assert_int_equal(edited, 0);
	diag_init(&d, NULL);
	assert_int_equal(policy_validate(&p, &d), 0);
	diag_free(&d);
	policy_free(&p);
}

static void test_expand_semi_lossy(void **state)
{
	struct policy p;
	struct diag d;
	uint32_t edited = 1;

	(void)state;
	expand(&p, POLICY_ROCE_SEMI_LOSSLESS);
	assert_int_equal(nq3(&p)->pfc_cos, 1u << 3);
	assert_true(nq3(&p)->pfc_rx_only);
	assert_int_equal(policy_roce_mode(&p, &edited),
	                 POLICY_ROCE_SEMI_LOSSLESS);
	assert_int_equal(edited, 0);
	diag_init(&d, NULL);
	assert_int_equal(policy_validate(&p, &d), 0);
	diag_free(&d);
	/* lossy over semi-lossless: the same names, no pause */
	assert_int_equal(
	    policy_roce_expand(&p, POLICY_ROCE_LOSSY, POLICY_ROCE_REPLACE, 0),
	    0);
	assert_int_equal(p.nmap_nq, 1);
	assert_int_equal(p.nclass_qos, 2);
	assert_int_equal(nq3(&p)->pfc_cos, 0);
	assert_false(nq3(&p)->pfc_rx_only);
	assert_int_equal(nq3(&p)->mtu, 9216);
	assert_int_equal(policy_roce_mode(&p, &edited), POLICY_ROCE_LOSSY);
	assert_int_equal(edited, 0);
	assert_int_equal(
	    policy_roce_expand(&p, POLICY_ROCE_NONE, POLICY_ROCE_REPLACE, 0),
	    -EINVAL);
	policy_free(&p);
}

static void test_mode_edited(void **state)
{
	struct policy p;
	struct policy_map_queuing *mu;
	uint32_t edited = 0;

	(void)state;
	expand(&p, POLICY_ROCE_LOSSLESS);
	mu = (struct policy_map_queuing *)policy_own_map_queuing(
	    &p, POLICY_ROCE_QUEUING);
	mu->queue[3].wred.max_bytes = 3000 * 1024;
	assert_int_equal(policy_roce_mode(&p, &edited), POLICY_ROCE_LOSSLESS);
	assert_int_equal(edited, 1u << POLICY_ROCE_OBJ_QUEUING);
	/* another system qos policy: the system's attachment is edited */
	snprintf(p.system.qos_input, sizeof(p.system.qos_input), "OTHER");
	assert_int_equal(policy_roce_mode(&p, &edited), POLICY_ROCE_LOSSLESS);
	assert_int_equal(edited, (1u << POLICY_ROCE_OBJ_QUEUING) |
	                             (1u << POLICY_ROCE_OBJ_SYSTEM));
	/* no roce removes exactly what roce wrote: the edited queuing
	 * policy stays, attached; the others go, and system qos lets go of
	 * them; OTHER was never roce's */
	{
		struct policy_roce_removal rm;

		assert_int_equal(policy_roce_remove(&p, &rm), 4);
		assert_int_equal(rm.edited, 1u << POLICY_ROCE_OBJ_QUEUING);
		assert_int_equal(rm.in_use, 0);
		assert_int_equal(p.nclass_qos + p.nmap_qos + p.nmap_nq, 0);
		assert_int_equal(p.nmap_queuing, 1);
		assert_string_equal(p.system.network_qos, "");
		assert_string_equal(p.system.queuing_output,
		                    POLICY_ROCE_QUEUING);
		assert_string_equal(p.system.qos_input, "OTHER");
		assert_int_equal(policy_roce_remove(&p, &rm), 0);
		assert_int_equal(rm.edited, 1u << POLICY_ROCE_OBJ_QUEUING);
	}
	policy_free(&p);
}

/* roce never clobbers: an object of its names that roce did not write,
 * and a system qos attaching other maps, are what it would clobber; an
 * object of another mode's expansion is its own. Before, `roce lossless`
 * replaced a public template's ROCE-DATA (DSCP 24) and its system qos. */
static void test_conflicts(void **state)
{
	struct policy p;
	struct policy_class_qos *c;
	struct policy_roce_removal rm;

	(void)state;
	policy_init(&p);
	assert_int_equal(policy_roce_conflicts(&p, POLICY_ROCE_LOSSLESS), 0);
	assert_int_equal(policy_roce_writes(&p, POLICY_ROCE_LOSSLESS),
	                 (1u << POLICY_ROCE_NOBJECTS) - 1);
	c = policy_add_class_qos(&p, POLICY_ROCE_CLASS);
	assert_non_null(c);
	c->match = POLICY_MATCH_ANY;
	c->dscp = UINT64_C(1) << 24;
	snprintf(p.system.network_qos, sizeof(p.system.network_qos), "MYNQ");
	assert_int_equal(policy_roce_conflicts(&p, POLICY_ROCE_LOSSLESS),
	                 (1u << POLICY_ROCE_OBJ_CLASS) |
	                     (1u << POLICY_ROCE_OBJ_SYSTEM));
	/* forced: written, then its own in every mode */
	p.system.network_qos[0] = '\0';
	assert_int_equal(policy_roce_expand(&p, POLICY_ROCE_LOSSLESS,
	                                    POLICY_ROCE_REPLACE, 0),
	                 0);
	assert_int_equal(policy_roce_conflicts(&p, POLICY_ROCE_LOSSY), 0);
	assert_int_equal(policy_roce_writes(&p, POLICY_ROCE_LOSSY),
	                 1u << POLICY_ROCE_OBJ_NQ);
	assert_int_equal(policy_roce_writes(&p, POLICY_ROCE_LOSSLESS), 0);
	/* a qos policy-map of the operator's names ROCE-DATA: no roce keeps
	 * the class, which that map needs */
	{
		struct policy_map_qos *m = policy_add_map_qos(&p, "OTHER");

		assert_non_null(m);
		assert_non_null(policy_map_qos_add_rule(m, POLICY_ROCE_CLASS));
	}
	assert_int_equal(policy_roce_remove(&p, &rm), 4);
	assert_int_equal(rm.in_use, 1u << POLICY_ROCE_OBJ_CLASS);
	assert_string_equal(rm.user[POLICY_ROCE_OBJ_CLASS],
	                    "policy-map type qos OTHER");
	assert_non_null(policy_find_class_qos(&p, POLICY_ROCE_CLASS));
	assert_null(policy_find_map_qos(&p, POLICY_ROCE_QOS));
	assert_string_equal(p.system.qos_input, "");
	policy_free(&p);
}

static void test_mode_names(void **state)
{
	char buf[64];

	(void)state;
	for (unsigned m = POLICY_ROCE_LOSSLESS; m < POLICY_ROCE_NMODES; m++)
		assert_int_equal(policy_roce_mode_parse(policy_roce_mode_name(
		                     (enum policy_roce_mode)m)),
		                 (int)m);
	assert_int_equal(policy_roce_mode_parse("none"), -1);
	assert_int_equal(policy_roce_mode_parse("Lossless"), -1);
	policy_roce_mode_expected(buf, sizeof(buf));
	assert_string_equal(buf, "lossless, semi-lossless or lossy");
}

/* ---- rocesh ---- */

static const char lossless_text[] =
    "roce lossless\n"
    "class-map type qos match-any ROCE-DATA\n"
    "  match cos 3\n"
    "  match dscp 26\n"
    "class-map type qos match-any ROCE-CNP\n"
    "  match cos 6\n"
    "  match dscp 48\n"
    "policy-map type qos ROCE-QOS\n"
    "  class ROCE-DATA\n"
    "    set qos-group 3\n"
    "  class ROCE-CNP\n"
    "    set qos-group 6\n"
    "policy-map type queuing ROCE-QUEUING\n"
    "  class type queuing c-out-8q-q6\n"
    "    priority level 1\n"
    "  class type queuing c-out-8q-q3\n"
    "    bandwidth remaining percent 50\n"
    "    random-detect minimum-threshold 150 kbytes maximum-threshold 1500 "
    "kbytes drop-probability 100 weight 0 ecn\n"
    "  class type queuing c-out-8q-q-default\n"
    "    bandwidth remaining percent 50\n"
    "policy-map type network-qos ROCE-NETWORK-QOS\n"
    "  class type network-qos c-8q-nq3\n"
    "    pause pfc-cos 3\n"
    "    mtu 9216\n"
    "system qos\n"
    "  service-policy type network-qos ROCE-NETWORK-QOS\n"
    "  service-policy type qos input ROCE-QOS\n"
    "  service-policy type queuing output ROCE-QUEUING\n";

static void test_cli_lossless(void **state)
{
	struct policy p, want;
	struct cmd_ctx c;
	char *text;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c, LINES("roce lossless"));
	text = tc_running(&p, NULL);
	assert_string_equal(text, lossless_text);
	free(text);
	tc_round_trip(&p);
	/* `roce` alone is lossless, as on Onyx, and equals the function */
	expand(&want, POLICY_ROCE_LOSSLESS);
	policy_free(&p);
	policy_init(&p);
	tc_session(&p, &c, LINES("roce"));
	policy_assert_equal(&p, &want);
	policy_free(&want);
	policy_free(&p);
}

static void test_cli_semi_edit_no(void **state)
{
	struct policy p;
	struct cmd_ctx c;
	char *text;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c, LINES("roce semi-lossless"));
	text = tc_running(&p, NULL);
	assert_non_null(strstr(text, "roce semi-lossless\n"));
	assert_non_null(strstr(text, "    pause pfc-cos 3 receive-only\n"));
	free(text);
	tc_round_trip(&p);
	/* an operator's edit: the `roce` line goes, the edit stays */
	tc_session(&p, &c,
	           LINES("policy-map type queuing ROCE-QUEUING",
	                 "class type queuing c-out-8q-q3",
	                 "bandwidth remaining percent 60",
	                 "class type queuing c-out-8q-q-default",
	                 "bandwidth remaining percent 40", "end"));
	text = tc_running(&p, NULL);
	assert_null(strstr(text, "roce "));
	assert_non_null(strstr(text, "bandwidth remaining percent 60\n"));
	free(text);
	tc_round_trip(&p);
	/* no roce with another mode is refused; no roce removes what
	 * roce wrote and keeps the edited queuing policy */
	tc_session(&p, &c, LINES(NULL));
	tc_apply_bad(&p, &c, "no roce lossy",
	             "roce is semi-lossless, not lossy", 8);
	tc_apply(&p, &c, "no roce");
	assert_int_equal(p.nclass_qos + p.nmap_qos + p.nmap_nq, 0);
	assert_int_equal(p.nmap_queuing, 1);
	tc_apply_bad(&p, &c, "no roce", "nothing is as roce wrote it", 0);
	text = tc_running(&p, NULL);
	assert_string_equal(text,
	                    "policy-map type queuing ROCE-QUEUING\n"
	                    "  class type queuing c-out-8q-q6\n"
	                    "    priority level 1\n"
	                    "  class type queuing c-out-8q-q3\n"
	                    "    bandwidth remaining percent 60\n"
	                    "    random-detect minimum-threshold 150 kbytes "
	                    "maximum-threshold 1500 kbytes drop-probability "
	                    "100 weight 0 ecn\n"
	                    "  class type queuing c-out-8q-q-default\n"
	                    "    bandwidth remaining percent 40\n"
	                    "system qos\n"
	                    "  service-policy type queuing output "
	                    "ROCE-QUEUING\n");
	free(text);
	tc_session(&p, &c,
	           LINES("system qos",
	                 "no service-policy type queuing output ROCE-QUEUING",
	                 "exit", "no policy-map type queuing ROCE-QUEUING"));
	tc_apply_bad(&p, &c, "no roce", "roce is not configured", 0);
	/* over an operator's object of its names: refused by name, then
	 * forced */
	tc_session(&p, &c,
	           LINES("class-map type qos match-any ROCE-CNP",
	                 "match dscp 46", "exit"));
	tc_apply_bad(&p, &c, "roce",
	             "roce lossless would replace ROCE-CNP, which roce did "
	             "not write",
	             0);
	assert_int_equal(p.nmap_qos, 0);
	tc_apply(&p, &c, "roce lossless force");
	assert_int_equal(policy_roce_mode(&p, NULL), POLICY_ROCE_LOSSLESS);
	policy_free(&p);
}

/* `pause pfc-cos 3 receive-only` typed by hand, and restated plain. */
static void test_cli_receive_only(void **state)
{
	struct policy p;
	struct cmd_ctx c;

	(void)state;
	policy_init(&p);
	tc_session(&p, &c,
	           LINES("policy-map type network-qos NQ",
	                 "class type network-qos c-8q-nq3",
	                 "pause pfc-cos 3 receive-only"));
	assert_true(p.map_nq[0].rules[0].pfc_rx_only);
	assert_int_equal(p.map_nq[0].rules[0].pfc_cos, 1u << 3);
	tc_apply(&p, &c, "pause pfc-cos 3");
	assert_false(p.map_nq[0].rules[0].pfc_rx_only);
	tc_apply(&p, &c, "pause pfc-cos 3 receive-only");
	tc_apply(&p, &c, "no pause pfc-cos");
	assert_false(p.map_nq[0].rules[0].pfc_rx_only);
	policy_free(&p);
}

/* ---- roced.conf ---- */

static void test_conf_roce(void **state)
{
	static const char file[] = "interface = ( { name = \"veth0\"; } );\n"
	                           "roce = \"lossless\";\n";
	struct policy p, q, want;
	struct diag d;
	char *text, *running;

	(void)state;
	diag_init(&d, "t.conf");
	assert_int_equal(conf_load_string(file, &p, &d), 0);
	assert_int_equal(d.nerrors, 0);
	expand(&want, POLICY_ROCE_LOSSLESS);
	assert_int_equal(policy_roce_mode(&p, NULL), POLICY_ROCE_LOSSLESS);
	/* roced.conf -> running-config -> copy running-config
	 * startup-config -> roced.conf: the same policy, the same words */
	running = tc_running(&p, NULL);
	assert_non_null(strstr(running, "roce lossless\n"));
	free(running);
	text = conf_write_string(&p);
	assert_non_null(strstr(text, "roce = \"lossless\";"));
	assert_int_equal(conf_load_string(text, &q, &d), 0);
	policy_assert_equal(&p, &q);
	free(text);
	policy_free(&q);
	policy_free(&p);
	policy_free(&want);
	diag_free(&d);
}

/* What the file defines itself wins over the expansion. */
static void test_conf_roce_keep(void **state)
{
	struct policy q;
	static const char file[] =
	    "policy-map = { queuing = ( { name = \"ROCE-QUEUING\";\n"
	    "  class = ( { name = \"c-out-8q-q3\";\n"
	    "              bandwidth-remaining-percent = 70; },\n"
	    "            { name = \"c-out-8q-q-default\";\n"
	    "              bandwidth-remaining-percent = 30; } ); } ); };\n"
	    "roce = \"lossy\";\n";
	struct policy p;
	struct diag d;
	uint32_t edited = 0;
	const struct policy_map_queuing *mu;
	char *text;

	(void)state;
	diag_init(&d, "t.conf");
	assert_int_equal(conf_load_string(file, &p, &d), 0);
	mu = policy_own_map_queuing(&p, POLICY_ROCE_QUEUING);
	assert_non_null(mu);
	assert_int_equal(mu->queue[3].bandwidth_percent, 70);
	assert_int_equal(p.nmap_queuing, 1);
	assert_int_equal(policy_roce_mode(&p, &edited), POLICY_ROCE_LOSSY);
	assert_int_equal(edited, 1u << POLICY_ROCE_OBJ_QUEUING);
	/* edited, and written with the roce line beside the objects: it
	 * adds nothing when loaded back */
	text = conf_write_string(&p);
	assert_non_null(strstr(text, "roce = \"lossy\";"));
	assert_int_equal(conf_load_string(text, &q, &d), 0);
	policy_assert_equal(&p, &q);
	free(text);
	policy_free(&q);
	/* one object gone: no roce line, which would bring it back */
	{
		struct policy_class_qos *c =
		    (struct policy_class_qos *)policy_find_class_qos(
		        &p, POLICY_ROCE_CNP);

		snprintf(c->name, sizeof(c->name), "OTHER");
	}
	text = conf_write_string(&p);
	assert_null(strstr(text, "roce ="));
	free(text);
	policy_free(&p);
	diag_free(&d);
}

static bool has_error(const struct diag *d, const char *needle)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].sev == DIAG_ERROR && strstr(d->v[i].text, needle))
			return true;
	return false;
}

static void test_conf_roce_bad(void **state)
{
	struct policy p;
	struct diag d;

	(void)state;
	diag_init(&d, "t.conf");
	assert_int_equal(conf_load_string("\n\nroce = \"lossles\";\n", &p, &d),
	                 -1);
	assert_int_equal(d.nerrors, 1);
	assert_true(has_error(&d, "invalid roce 'lossles', expected lossless, "
	                          "semi-lossless or lossy"));
	for (size_t i = 0; i < d.n; i++)
		if (d.v[i].sev == DIAG_ERROR)
			assert_int_equal(d.v[i].line, 3);
	diag_free(&d);
	diag_init(&d, "t.conf");
	assert_int_equal(
	    conf_load_string("policy-map = { network-qos = ( { name = \"N\";\n"
	                     " class = ( { name = \"c-8q-nq3\";\n"
	                     " pause-receive-only = true; } ); } ); };\n",
	                     &p, &d),
	    -1);
	assert_int_equal(d.nerrors, 1);
	assert_true(has_error(&d, "without pause pfc-cos"));
	diag_free(&d);
}

/* ---- semi-lossless through compile ---- */

static void test_compile_semi(void **state)
{
	struct policy p;
	struct plan pl;
	struct compile_port cp;
	const struct plan_port *pp;

	(void)state;
	expand(&p, POLICY_ROCE_SEMI_LOSSLESS);
	tcomp_add_iface(&p, "eth1", POLICY_PFC_ON, NULL, NULL);
	tcomp_port(&cp, "eth1", CAPS_PRESET_HOST);
	cp.softpfc = true;
	pp = tcomp_run_port(&p, &cp, &pl);
	assert_int_equal(pp->dcb.pfc_en, 1u << 3);
	assert_int_equal(pp->dcb.pfc_rx_only, 1u << 3);
	plan_free(&pl);
	/* a driver cannot: lossy, said */
	tcomp_port(&cp, "eth1", CAPS_PRESET_HW);
	pp = tcomp_run_port(&p, &cp, &pl);
	assert_int_equal(pp->dcb.pfc_en, 0);
	assert_int_equal(pp->dcb.pfc_admin, 0);
	tcomp_want_warning(pp, "cannot honour pause without sending it");
	plan_free(&pl);
	policy_free(&p);
	/* lossless: plain PFC */
	expand(&p, POLICY_ROCE_LOSSLESS);
	tcomp_add_iface(&p, "eth1", POLICY_PFC_ON, NULL, NULL);
	tcomp_port(&cp, "eth1", CAPS_PRESET_HOST);
	cp.softpfc = true;
	pp = tcomp_run_port(&p, &cp, &pl);
	assert_int_equal(pp->dcb.pfc_en, 1u << 3);
	assert_int_equal(pp->dcb.pfc_rx_only, 0);
	plan_free(&pl);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_expand_lossless),
	    cmocka_unit_test(test_expand_semi_lossy),
	    cmocka_unit_test(test_mode_edited),
	    cmocka_unit_test(test_conflicts),
	    cmocka_unit_test(test_mode_names),
	    cmocka_unit_test(test_cli_lossless),
	    cmocka_unit_test(test_cli_semi_edit_no),
	    cmocka_unit_test(test_cli_receive_only),
	    cmocka_unit_test(test_conf_roce),
	    cmocka_unit_test(test_conf_roce_keep),
	    cmocka_unit_test(test_conf_roce_bad),
	    cmocka_unit_test(test_compile_semi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
