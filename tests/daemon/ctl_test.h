/* ctl_test: what the control socket's tests (test_ctl, test_ctl_show,
 * test_show_fc) share: a request parsed from a string, a path into a JSON
 * answer, and the fixture of the show tests. */
#ifndef ROCED_TESTS_CTL_TEST_H
#define ROCED_TESTS_CTL_TEST_H

#include <json-c/json.h>

#include "base/strbuf.h"
#include "registry/ports.h"
#include "ctl/ctl.h"
#include "plan/compile.h"
#include "show/show.h"

/* Parse the request S (ctl_request_parse) with a 256-byte ERR. */
int ctlt_parse(const char *s, struct ctl_request *r, char *err);

/* The member of O at PATH ("data.interface.0.name": keys and array
 * indexes), NULL when there is none. */
struct json_object *ctlt_jget(struct json_object *o, const char *path);

/* The shipped policy, planned as the daemon plans it (the port registry,
 * host capabilities) and applied: show's input is the registry's plan. */
struct ctlt_fixture {
	struct policy p;
	struct ports reg;
	const struct plan_port *plans[4];
	struct show_port_state st[4];
	struct show_input in;
};

/* cmocka setup and teardown of a struct ctlt_fixture in *STATE. */
int ctlt_setup(void **state);
int ctlt_teardown(void **state);

/* show's answer to Q from F's input (fails the test on an error); TEXT
 * gets the text. */
struct json_object *ctlt_answer(struct ctlt_fixture *f, struct show_query *q,
                                struct strbuf *text);

#endif
