/* ctl_test: what the control socket's tests share (ctl_test.h). */
#include "ctl_test.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conf/conf.h"

int ctlt_parse(const char *s, struct ctl_request *r, char *err)
{
	return ctl_request_parse(s, strlen(s), r, err, 256);
}

int ctlt_setup(void **state)
{
	struct ctlt_fixture *f = calloc(1, sizeof(*f));
	struct reconcile_result res[4] = {{.status = RECONCILE_OK}};
	struct caps caps;
	struct plan pl;
	struct diag d;

	assert_non_null(f);
	diag_init(&d, "roced.conf");
	assert_int_equal(
	    conf_load_file(TEST_SRCDIR "/conf/roced.conf", &f->p, &d), 0);
	caps_preset(&caps, CAPS_PRESET_HOST);
	ports_init(&f->reg, &caps, false);
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&f->reg, &f->p, "roced.conf", NULL, 0, &pl, &d), 0);
	assert_int_equal(pl.nports, 1);
	ports_applied(&f->reg, &pl, pl.nports, res, NULL);
	ports_applied_global(&f->reg, &pl);
	plan_free(&pl);
	diag_free(&d);
	assert_int_equal(f->reg.n, 1);
	assert_true(ports_programmed(&f->reg.v[0]));
	f->plans[0] = &f->reg.v[0].plan;
	f->st[0].exists = true;
	f->st[0].stats = true;
	for (unsigned q = 0; q < POLICY_NQUEUES; q++) {
		f->st[0].queue_seen[q] = true;
		f->st[0].queue[q].basic = true;
		f->st[0].queue[q].queue = true;
	}
	f->st[0].queue[3].packets = 4242;
	f->st[0].queue[3].bytes = 5000000;
	f->st[0].queue[3].drops = 7;
	f->st[0].queue[3].backlog = 1500;
	f->st[0].roced_root = true;
	f->st[0].state = ports_state(&f->reg.v[0]);
	f->in.policy = &f->p;
	f->in.global = &f->reg.global;
	f->in.config_file = "roced.conf";
	f->in.plans = f->plans;
	f->in.state = f->st;
	f->in.nports = 1;
	*state = f;
	return 0;
}

int ctlt_teardown(void **state)
{
	struct ctlt_fixture *f = *state;

	ports_free(&f->reg);
	policy_free(&f->p);
	free(f);
	return 0;
}

struct json_object *ctlt_answer(struct ctlt_fixture *f, struct show_query *q,
                                struct strbuf *text)
{
	struct json_object *data = NULL;
	char err[256] = "";

	strbuf_init(text);
	/* The tests change F's policy as a commit would: its global part
	 * is applied with it. */
	compile_global(&f->p, &f->reg.global);
	if (show_answer(q, &f->in, &data, text, err, sizeof(err)) < 0)
		fail_msg("show_answer: %s", err);
	return data;
}

struct json_object *ctlt_jget(struct json_object *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k && o;
	     k = strtok_r(NULL, ".", &save)) {
		if (k[0] >= '0' && k[0] <= '9')
			o = json_object_array_get_idx(o, (size_t)atoi(k));
		else if (!json_object_object_get_ex(o, k, &o))
			return NULL;
	}
	return o;
}
