/* hexfix: read the netlink captures of tests/fixtures/ (*.hex: "#"
 * comment lines, then one message per line in lowercase hex). */
#ifndef ROCED_TEST_HEXFIX_H
#define ROCED_TEST_HEXFIX_H

#include <stddef.h>
#include <stdint.h>

/* Message IDX (0 = the first) of TEST_SRCDIR/tests/fixtures/DIR/NAME.hex
 * into BUF; returns its length. Fails the test when there is none. */
size_t hexfix_msg(const char *dir, const char *name, int idx, uint8_t *buf,
                  size_t max);

#endif
