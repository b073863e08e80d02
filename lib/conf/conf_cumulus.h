/* Cumulus Linux traffic.conf, qos_features.conf and NVUE -> roced.conf.
 *
 * Cumulus Linux before 5.0 kept its whole QoS in
 * /etc/cumulus/datapath/traffic.conf: flat `key = value` lines naming the
 * priority sources (802.1p, DSCP) of each internal CoS, the priority
 * groups and their DWRR weights, and port groups for PFC, link pause and
 * ECN with their buffers and thresholds. An operator moving such a switch
 * (or its runbook) to roced gets the same policy in roced.conf's NX-OS
 * vocabulary: internal CoS N is qos-group N, a priority group's weight is
 * its queues' share, a PFC port group's CoS list is no-drop and its
 * buffer the ingress pause buffer, an ECN group is random-detect ecn on
 * its CoS queues of its ports.
 *
 * Pure: text in, text out, diagnostics with the traffic.conf's line. */
#ifndef ROCED_CONF_CUMULUS_H
#define ROCED_CONF_CUMULUS_H

#include "base/diag.h"
#include "base/strbuf.h"

/* Translate TEXT (a traffic.conf, a 4.x/5.x qos_features.conf or NVUE
 * `nv set qos roce` commands; D's file names it in messages) into a
 * roced.conf appended to OUT. Every key that is not mapped is a warning
 * at its line, and so is a line that cannot be read (it is skipped, the
 * rest imported); a PFC CoS that the file's 802.1p map sends elsewhere
 * is warned. A file with no Cumulus key, or whose groups contradict
 * themselves, is an error: nothing is appended and -1 returned. */
int conf_import_cumulus(const char *text, struct strbuf *out, struct diag *d);

/* Expand a Cumulus port set ("swp1-swp4,swp6,swp50s0-swp50s3") into
 * NAMES (up to MAX entries of IFNAMSIZ bytes each). Returns the count, or
 * -1 with a reason in ERR. Exposed for the unit test. */
#define CUMULUS_IFNAMSIZ 16
int conf_cumulus_ports(const char *set, char (*names)[CUMULUS_IFNAMSIZ],
                       int max, char *err, size_t errlen);

#endif
