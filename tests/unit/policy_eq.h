/* policy_eq: the policy equality tests use (everything but source lines),
 * shared by test_conf (file round trips) and test_cmd (CLI round trips). */
#ifndef ROCED_TEST_POLICY_EQ_H
#define ROCED_TEST_POLICY_EQ_H

#include "model/policy.h"

/* Fail the running cmocka test unless A and B are equal but for lines. */
void policy_assert_equal(const struct policy *a, const struct policy *b);

#endif
