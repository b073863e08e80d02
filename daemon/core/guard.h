/* guard: no software PFC hold outlives roced, supervised or not.
 *
 * A held no-drop queue is a tbf at a trickle that only roced releases
 * (when the pause expires or is cancelled). A roced killed with SIGKILL
 * or by the OOM killer leaves it held; under systemd the unit's
 * ExecStopPost= runs `roced --release-holds`, but started by hand, by a
 * container's entry point or by another supervisor nothing did, and the
 * queue stayed held until someone noticed.
 *
 * So roced forks a guard at start: a small process that holds the read
 * end of a pipe whose only write end is roced's. When roced dies, however
 * it dies, the kernel closes that end and the guard wakes at once. It
 * then releases every hold in the namespace (engine_release_holds, what
 * --release-holds does) unless another roced already runs there (it owns
 * the instance lock and its holds are its own), and exits. On a clean
 * stop roced tells the guard so first (one byte): roced released its
 * holds itself, and the guard exits without touching the kernel, so that
 * a roced started at once after cannot have a fresh hold undone.
 *
 * The guard keeps only CAP_NET_ADMIN and CAP_NET_RAW, ignores the
 * terminal's SIGINT and SIGHUP (roced handles those and then stops
 * cleanly) and dies on SIGTERM like any process of the unit. If it dies
 * first, roced forks another and says so; one that dies again within
 * GUARD_RESPAWN_MS of the last death is not replaced (roced says so). */
#ifndef ROCED_GUARD_H
#define ROCED_GUARD_H

#include <stdbool.h>
#include <sys/types.h>

#define GUARD_RESPAWN_MS 1000.0
/* How long a clean stop waits for the guard to exit. */
#define GUARD_STOP_WAIT_MS 1000

struct guard {
	pid_t pid;        /* the guard, 0 when none runs */
	int wfd;          /* the pipe's write end, held by roced alone */
	int pidfd;        /* readable when the guard exits (-1: none) */
	double reaped_ms; /* when one last died and was replaced (0: never) */
};

void guard_init(struct guard *g);

/* Fork the guard. Call where roced's only thread runs, after the instance
 * lock is taken (the guard closes its copy of every descriptor). Returns
 * 0, or -errno (roced then runs without one, and says so). */
int guard_start(struct guard *g);

/* The descriptor that becomes readable when the guard exits (for the
 * event loop), or -1. */
int guard_fd(const struct guard *g);

/* The guard exited (guard_fd() was readable): reap it and, unless the
 * one before died less than GUARD_RESPAWN_MS ago, fork another. */
void guard_reap(struct guard *g, double now_ms);

/* Stopping cleanly: the guard exits without releasing anything (roced
 * did). */
void guard_stop(struct guard *g);

#endif
