/* test_classify: which queue of a compiled plan a frame of a CoS and a
 * DSCP goes to (lib/plan/classify.c), as the port's classifier decides:
 * the shipped policy compiled for this machine's kernel (one cls_bpf
 * program on the egress root, run by the interpreter) and for a full
 * kernel (flower rules on clsact ingress with, for software PFC's htb
 * root, a cls_bpf program on egress as well); and the interpreter on
 * what it does not know. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <linux/filter.h>

#include "conf/conf.h"
#include "plan/classify.h"
#include "plan/compile.h"

static void compile_shipped(enum caps_preset preset, bool match_any,
                            bool routed, struct policy *p, struct plan *pl)
{
	struct compile_port cp;
	struct diag d;

	diag_init(&d, NULL);
	assert_int_equal(conf_load_file(TEST_SRCDIR "/conf/roced.conf", p, &d),
	                 0);
	diag_free(&d);
	for (size_t i = 0; i < p->nclass_qos; i++)
		if (!strcmp(p->class_qos[i].name, "ROCE_CLASS"))
			p->class_qos[i].match =
			    match_any ? POLICY_MATCH_ANY : POLICY_MATCH_ALL;
	memset(&cp, 0, sizeof(cp));
	snprintf(cp.ifname, sizeof(cp.ifname), "%s", p->ifaces[0].name);
	caps_preset(&cp.caps, preset);
	cp.caps.untagged = routed;
	cp.softpfc = true;
	plan_init(pl);
	assert_int_equal(compile_policy(p, &cp, 1, pl), 0);
	assert_int_equal(pl->nports, 1);
}

static void check(enum caps_preset preset)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;

	/* match-all: CoS 3 and DSCP 26 */
	compile_shipped(preset, false, false, &p, &pl);
	pp = &pl.ports[0];
	assert_int_equal(plan_classify(pp, 3, 26), 3);
	assert_int_equal(plan_classify(pp, CLASSIFY_UNTAGGED, 26), 0);
	assert_int_equal(plan_classify(pp, 3, 0), 0);
	assert_int_equal(plan_classify(pp, 3, CLASSIFY_NOT_IP), 0);
	assert_int_equal(plan_classify(pp, CLASSIFY_UNTAGGED, CLASSIFY_NOT_IP),
	                 0);
	plan_free(&pl);
	policy_free(&p);
	/* match-any: either */
	compile_shipped(preset, true, false, &p, &pl);
	pp = &pl.ports[0];
	assert_int_equal(plan_classify(pp, CLASSIFY_UNTAGGED, 26), 3);
	assert_int_equal(plan_classify(pp, 3, CLASSIFY_NOT_IP), 3);
	assert_int_equal(plan_classify(pp, 5, 0), 0);
	assert_int_equal(plan_classify(pp, CLASSIFY_UNTAGGED, 46), 0);
	plan_free(&pl);
	policy_free(&p);
}

static void test_host_kernel(void **state)
{
	(void)state;
	check(CAPS_PRESET_HOST);
}

static void test_full_kernel(void **state)
{
	(void)state;
	check(CAPS_PRESET_FULL);
}

/* How many of PP's warnings contain TEXT. */
static size_t warnings_with(const struct plan_port *pp, const char *text)
{
	size_t n = 0;

	for (size_t i = 0; i < pp->warnings.n; i++)
		n += strstr(pp->warnings.v[i].text, text) != NULL;
	return n;
}

/* A routed port (no bridge, no VLAN: untagged frames only), the shipped
 * policy as it is: untagged DSCP 26 is no-drop, on the priority the DCB
 * APP table (what DCBX advertises) gives DSCP 26, and that priority's
 * PFC is on, on the same queue. The same class as match-all on cos and
 * dscp can never match there, and the plan says so, by class and port;
 * not on a port whose frames may be tagged. */
static void routed(enum caps_preset preset)
{
	struct policy p;
	struct plan pl;
	const struct plan_port *pp;
	int prio = -1;

	/* the shipped file itself (compile_shipped forces the match) */
	{
		struct compile_port cp;
		struct diag d;

		diag_init(&d, NULL);
		assert_int_equal(
		    conf_load_file(TEST_SRCDIR "/conf/roced.conf", &p, &d), 0);
		diag_free(&d);
		memset(&cp, 0, sizeof(cp));
		snprintf(cp.ifname, sizeof(cp.ifname), "swp1");
		caps_preset(&cp.caps, preset);
		cp.caps.untagged = true;
		cp.softpfc = true;
		plan_init(&pl);
		assert_int_equal(compile_policy(&p, &cp, 1, &pl), 0);
	}
	pp = &pl.ports[0];
	assert_int_equal(plan_classify(pp, CLASSIFY_UNTAGGED, 26), 3);
	assert_int_equal(warnings_with(pp, "can never match"), 0);
	for (size_t i = 0; i < pp->dcb_local.napp; i++)
		if (pp->dcb_local.app[i].selector == PLAN_APP_SEL_DSCP &&
		    pp->dcb_local.app[i].protocol == 26)
			prio = pp->dcb_local.app[i].priority;
	assert_int_equal(prio, 3);
	assert_true(pp->dcb.pfc_en & (1u << prio));
	assert_int_equal(pp->dcb.prio_tc[prio], 3);
	plan_free(&pl);
	policy_free(&p);
	/* match-all on a routed port: never matches, said by name */
	compile_shipped(preset, false, true, &p, &pl);
	pp = &pl.ports[0];
	assert_int_equal(plan_classify(pp, CLASSIFY_UNTAGGED, 26), 0);
	assert_int_equal(
	    warnings_with(pp, "class-map ROCE_CLASS can never match on swp1"),
	    1);
	plan_free(&pl);
	policy_free(&p);
	/* match-all where frames may be tagged: no such warning */
	compile_shipped(preset, false, false, &p, &pl);
	assert_int_equal(warnings_with(&pl.ports[0], "can never match"), 0);
	plan_free(&pl);
	policy_free(&p);
}

static void test_routed_host(void **state)
{
	(void)state;
	routed(CAPS_PRESET_HOST);
}

static void test_routed_full(void **state)
{
	(void)state;
	routed(CAPS_PRESET_FULL);
}

/* A plan without classifiers cannot say. */
static void test_no_classifier(void **state)
{
	struct plan_port pp;

	(void)state;
	memset(&pp, 0, sizeof(pp));
	assert_int_equal(plan_classify(&pp, 3, 26), -1);
}

static void test_interpreter(void **state)
{
	const struct plan_bpf_insn unknown[] = {
	    {.code = BPF_LD | BPF_W | BPF_ABS, .k = SKF_AD_OFF + SKF_AD_CPU},
	    {.code = BPF_RET | BPF_K, .k = 7},
	};
	const struct plan_bpf_insn past[] = {
	    {.code = BPF_LD | BPF_H | BPF_ABS, .k = 59},
	    {.code = BPF_RET | BPF_K, .k = 7},
	};
	const struct plan_bpf_insn out[] = {
	    {.code = BPF_JMP | BPF_JA, .k = 5},
	    {.code = BPF_RET | BPF_K, .k = 7},
	};
	const struct plan_bpf_insn tag[] = {
	    {.code = BPF_LD | BPF_W | BPF_ABS,
	     .k = SKF_AD_OFF + SKF_AD_VLAN_TAG},
	    {.code = BPF_ALU | BPF_RSH | BPF_K, .k = 13},
	    {.code = BPF_RET | BPF_A},
	};
	uint8_t f[60] = {0};

	(void)state;
	assert_int_equal(plan_bpf_run(unknown, 2, f, sizeof(f), 0, 0), -1);
	/* a load past the frame ends the program with 0, as the kernel */
	assert_int_equal(plan_bpf_run(past, 2, f, sizeof(f), 0, 0), 0);
	assert_int_equal(plan_bpf_run(out, 2, f, sizeof(f), 0, 0), -1);
	assert_int_equal(plan_bpf_run(tag, 3, f, sizeof(f), 1, 5 << 13), 5);
	/* no return at the end */
	assert_int_equal(plan_bpf_run(tag, 2, f, sizeof(f), 1, 5 << 13), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_host_kernel),
	    cmocka_unit_test(test_full_kernel),
	    cmocka_unit_test(test_routed_host),
	    cmocka_unit_test(test_routed_full),
	    cmocka_unit_test(test_no_classifier),
	    cmocka_unit_test(test_interpreter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
