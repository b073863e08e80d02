/* txpoll_int: what txpoll.c (the poll: sync, read, pace, step) takes from
 * txpoll_send.c (whom a slot's frames go to, and sending them). Internal
 * to the transmit side; see txpoll.h. */
#ifndef ROCED_TXPOLL_INT_H
#define ROCED_TXPOLL_INT_H

#include "agent/txpoll.h"

/* The slots of queue Q of X (Q < POLICY_NQUEUES: its priorities;
 * TXPOLL_LP_Q: the link pause slot, when X has it). */
uint16_t txpoll_qslots(const struct txpoll_port *x, unsigned q);
/* The backlog of queue Q of X at its last read (TXPOLL_LP_Q: the sum of
 * every queue read). */
uint64_t txpoll_qbacklog(const struct txpoll_port *x, unsigned q);
/* Does X pause a slot of queue Q (feeders a staggered XON has not
 * reached yet included)? */
bool txpoll_paused_q(const struct txpoll_port *x, unsigned q);
/* The bit of feeder NAME in X's masks; 0 when it is not X's feeder. */
uint64_t txpoll_feeder_bit(const struct txpoll_port *x, const char *name);
/* Send SLOT's frame (a PFC frame for priority SLOT, or a link pause)
 * of QUANTA (0: XON) out of the feeders of X in MASK. */
void txpoll_send(struct txpoll *t, const struct txpoll_port *x, unsigned slot,
                 uint16_t quanta, uint64_t mask);
/* The feeders a pause of queue Q of X goes to. */
uint64_t txpoll_contributors(struct txpoll *t, struct txpoll_port *x,
                             unsigned q, double now);
/* Queue Q of X is empty and not paused: a new window of counts. */
void txpoll_window(struct txpoll *t, struct txpoll_port *x, unsigned q,
                   double now);
/* The paused feeders of X for SLOT that go with the first XON. */
uint64_t txpoll_xon_hosts(const struct txpoll *t, const struct txpoll_port *x,
                          unsigned slot);
/* The feeders an XON for SLOT releases: the hosts, and with ONE_SWITCH
 * the next paused switch, unless X was itself held by its peer lately. */
uint64_t txpoll_xon_one(const struct txpoll *t, struct txpoll_port *x,
                        unsigned slot, bool one_switch, double now);

#endif
