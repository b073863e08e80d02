/* policy_eq: see policy_eq.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <strings.h>

#include "model/setting.h"
#include "policy_eq.h"

/* Source lines differ between a file, its rewrite and the CLI: clear
 * them. */
static void strip_lines(struct policy *p)
{
	for (size_t i = 0; i < p->nclass_qos; i++) {
		p->class_qos[i].line = 0;
		p->class_qos[i].cos_line = p->class_qos[i].dscp_line = 0;
		p->class_qos[i].precedence_line = 0;
	}
	for (size_t i = 0; i < p->nmap_qos; i++) {
		p->map_qos[i].line = 0;
		for (size_t r = 0; r < p->map_qos[i].nrules; r++) {
			p->map_qos[i].rules[r].line =
			    p->map_qos[i].rules[r].qos_group_line = 0;
			p->map_qos[i].rules[r].set_line = 0;
		}
	}
	for (size_t i = 0; i < p->nmap_queuing; i++) {
		p->map_queuing[i].line = 0;
		for (unsigned n = 0; n < POLICY_NQUEUES; n++) {
			struct policy_queue *q = &p->map_queuing[i].queue[n];

			q->line = q->bandwidth_line = q->priority_line = 0;
			q->wred.line = q->wred.min_line = q->wred.max_line = 0;
			q->wred.probability_line = q->wred.weight_line = 0;
			q->pause.line = q->bandwidth_min_line = 0;
			q->queue_limit_line = 0;
			q->wred_profile_line = q->shape_line = 0;
			q = &p->map_queuing[i].in_queue[n];
			q->line = q->pause.line = 0;
		}
	}
	for (size_t i = 0; i < p->nclass_nq; i++)
		p->class_nq[i].line = 0;
	for (size_t i = 0; i < p->nmap_nq; i++) {
		p->map_nq[i].line = 0;
		for (size_t r = 0; r < p->map_nq[i].nrules; r++) {
			struct policy_nq_rule *nr = &p->map_nq[i].rules[r];

			nr->line = nr->pause_line = nr->mtu_line = 0;
			nr->no_drop_line = nr->buffer.line = 0;
			nr->pfc_rx_only_line = 0;
		}
	}
	for (size_t i = 0; i < p->nifaces; i++) {
		struct policy_iface *f = &p->ifaces[i];

		f->line = f->qos_input_line = f->queuing_output_line = 0;
		f->alias_line = 0;
		f->queuing_input_line = f->mtu_line = 0;
		f->fabric_internal_line = f->fc_rx_line = f->fc_tx_line = 0;
		f->lldp.willing_line = f->lldp.agent_line = 0;
	}
	/* and those of every row of the settings table */
	for (size_t k = 0; k < setting_count; k++) {
		const struct setting *s = &setting_table[k];
		unsigned *line;

		if (s->scope == SETTING_GLOBAL) {
			if ((line = setting_line(s, p)))
				*line = 0;
			continue;
		}
		for (size_t i = 0; i < p->nifaces; i++)
			if ((line = setting_line(s, &p->ifaces[i])))
				*line = 0;
	}
}

#define ASSERT_ARRAY_EQUAL(a, b, arr, n)                                       \
	do {                                                                   \
		assert_int_equal((a)->n, (b)->n);                              \
		if ((a)->n)                                                    \
			assert_memory_equal((a)->arr, (b)->arr,                \
			                    (a)->n * sizeof(*(a)->arr));       \
	} while (0)

void policy_assert_equal(const struct policy *a0, const struct policy *b0)
{
	struct policy a, b;

	assert_int_equal(policy_copy(&a, a0), 0);
	assert_int_equal(policy_copy(&b, b0), 0);
	strip_lines(&a);
	strip_lines(&b);
	/* Each setting of the table by name first, for a message that says
	 * which. */
	for (size_t k = 0; k < setting_count; k++) {
		const struct setting *s = &setting_table[k];

		if (s->scope == SETTING_GLOBAL) {
			if (setting_get(s, &a) != setting_get(s, &b))
				fail_msg("%s: %u != %u", s->nxos,
				         setting_get(s, &a),
				         setting_get(s, &b));
			continue;
		}
		for (size_t i = 0; i < a.nifaces && i < b.nifaces; i++)
			if (setting_get(s, &a.ifaces[i]) !=
			    setting_get(s, &b.ifaces[i]))
				fail_msg("%s of %s: %u != %u", s->nxos,
				         a.ifaces[i].name,
				         setting_get(s, &a.ifaces[i]),
				         setting_get(s, &b.ifaces[i]));
	}
	ASSERT_ARRAY_EQUAL(&a, &b, class_qos, nclass_qos);
	ASSERT_ARRAY_EQUAL(&a, &b, map_queuing, nmap_queuing);
	ASSERT_ARRAY_EQUAL(&a, &b, class_nq, nclass_nq);
	ASSERT_ARRAY_EQUAL(&a, &b, ifaces, nifaces);
	assert_int_equal(a.nmap_qos, b.nmap_qos);
	for (size_t i = 0; i < a.nmap_qos; i++) {
		assert_string_equal(a.map_qos[i].name, b.map_qos[i].name);
		assert_string_equal(a.map_qos[i].description,
		                    b.map_qos[i].description);
		ASSERT_ARRAY_EQUAL(&a.map_qos[i], &b.map_qos[i], rules, nrules);
	}
	assert_int_equal(a.nmap_nq, b.nmap_nq);
	for (size_t i = 0; i < a.nmap_nq; i++) {
		assert_string_equal(a.map_nq[i].name, b.map_nq[i].name);
		assert_string_equal(a.map_nq[i].description,
		                    b.map_nq[i].description);
		ASSERT_ARRAY_EQUAL(&a.map_nq[i], &b.map_nq[i], rules, nrules);
	}
	assert_string_equal(a.system.network_qos, b.system.network_qos);
	assert_string_equal(a.system.qos_input, b.system.qos_input);
	assert_string_equal(a.system.queuing_output, b.system.queuing_output);
	assert_string_equal(a.system.queuing_input, b.system.queuing_input);
	assert_int_equal(a.pfc_mc_drop, b.pfc_mc_drop);
	ASSERT_ARRAY_EQUAL(&a, &b, qclasses, nqclasses);
	/* the port-channels' kept lines (not the port profiles, which are
	 * paste-time macros and not saved) */
	for (size_t i = 0, j = 0;; i++, j++) {
		while (i < a.nprofiles &&
		       strncasecmp(a.profiles[i].name, "port-channel", 12))
			i++;
		while (j < b.nprofiles &&
		       strncasecmp(b.profiles[j].name, "port-channel", 12))
			j++;
		assert_int_equal(i < a.nprofiles, j < b.nprofiles);
		if (i >= a.nprofiles)
			break;
		assert_string_equal(a.profiles[i].name, b.profiles[j].name);
		assert_int_equal(a.profiles[i].nlines, b.profiles[j].nlines);
		for (size_t l = 0; l < a.profiles[i].nlines; l++)
			assert_string_equal(a.profiles[i].lines[l],
			                    b.profiles[j].lines[l]);
	}
	assert_int_equal(a.pfcwd.enabled, b.pfcwd.enabled);
	assert_int_equal(a.pfcwd.poll_ms, b.pfcwd.poll_ms);
	assert_int_equal(a.pfcwd.shutdown_mult, b.pfcwd.shutdown_mult);
	assert_int_equal(a.pfcwd.auto_restore_mult, b.pfcwd.auto_restore_mult);
	assert_int_equal(a.pfcwd.fixed_restore_mult,
	                 b.pfcwd.fixed_restore_mult);
	assert_int_equal(a.pfcwd.action, b.pfcwd.action);
	assert_int_equal(a.pfcwd.internal_if_mult, b.pfcwd.internal_if_mult);
	assert_int_equal(a.lldp.no_feature, b.lldp.no_feature);
	assert_int_equal(a.lldp.timer, b.lldp.timer);
	assert_int_equal(a.lldp.holdtime, b.lldp.holdtime);
	assert_int_equal(a.lldp.reinit, b.lldp.reinit);
	assert_int_equal(a.lldp.no_dcbxp, b.lldp.no_dcbxp);
	assert_int_equal(a.lldp.egress_queuing, b.lldp.egress_queuing);
	assert_int_equal(a.lldp.agent, b.lldp.agent);
	assert_string_equal(a.metrics.textfile, b.metrics.textfile);
	assert_int_equal(a.metrics.interval, b.metrics.interval);
	policy_free(&a);
	policy_free(&b);
}
