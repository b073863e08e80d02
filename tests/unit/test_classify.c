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
                            struct policy *p, struct plan *pl)
{
	struct compile_port cp;
	struct diag d;

	diag_init(&d, NULL);
	assert_int_equal(conf_load_file(TEST_SRCDIR "/conf/roced.conf", p, &d),
	                 0);
	diag_free(&d);
	for (size_t i = 0; match_any && i < p->nclass_qos; i++)
		if (!strcmp(p->class_qos[i].name, "ROCE_CLASS"))
			p->class_qos[i].match = POLICY_MATCH_ANY;
	memset(&cp, 0, sizeof(cp));
	snprintf(cp.ifname, sizeof(cp.ifname), "%s", p->ifaces[0].name);
	caps_preset(&cp.caps, preset);
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
	compile_shipped(preset, false, &p, &pl);
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
	compile_shipped(preset, true, &p, &pl);
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
	    cmocka_unit_test(test_no_classifier),
	    cmocka_unit_test(test_interpreter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
