/* ctl: the control socket between roced and rocesh (and scripts).
 *
 * Transport: a Unix SOCK_SEQPACKET socket, so each datagram is one whole
 * request or reply. The path is ctl_state_path(".sock"): /run/roced/
 * roced.sock in the host's network namespace, /run/roced/
 * roced.<netns-inode>.sock in any other or where the host's cannot be
 * proved (one roced per namespace, like the kernel state it owns).
 * Requests larger than CTL_MAX_REQUEST are answered with an error and the
 * connection is closed; the daemon never trusts a request's contents.
 *
 * Every request and reply is one JSON object (json-c). Keys are lowercase
 * with '-' between words, as in the config file.
 *
 * Requests:
 *   {"cmd": "config", "context": ["policy-map type queuing X", ...],
 *    "line": "bandwidth remaining percent 50"}
 *        Re-enter CONTEXT (cmd_ctx path lines) on a copy of the running
 *        policy, carry out LINE (lib/cmd/cmd.h), validate, compile and apply.
 *        Reply {"ok": true, "context": [...], "mode": "config-pmap-c-que",
 *        "warnings": ["..."], "standing": ["..."]}: WARNINGS those not
 *        told already and the line's note, STANDING every warning of the
 *        policy as it now stands (not the plan's, which come for the
 *        ports the line changed only); on error {"ok": false, "error":
 *        "% ...", "pos": N} and nothing changes. Needs the configure
 *        right.
 *   {"cmd": "show", "what": "NAME", "args": ["..."], "json": bool}
 *        NAME is cmd_parsed.name of a show command ("show running-config",
 *        "show queuing interface", ...). ARGS is the whole line in
 *        words (rocesh sends its canonical line: ARGS begin with "show")
 *        or the words that follow NAME's. roced parses that line with
 *        the command table rocesh uses (lib/cmd/cmd_show.h), so a
 *        script's request meets the same grammar and errors; the row
 *        the line matches decides the answer.
 *        Reply {"ok": true, "data": {...}} where DATA is the structured
 *        answer (what `json` prints), and "text": "..." with the NX-OS
 *        style rendering, produced by the same code path.
 *   {"cmd": "copy", "from": "running-config", "to": "startup-config"}
 *        Write the running policy to the config file atomically (temporary
 *        file, fsync, rename; the previous file kept as FILE.bak). Needs the
 *        configure right.
 *   {"cmd": "reload", "force": bool}
 *        Reload the configuration file, as SIGHUP does, and answer once
 *        it is applied or refused: {"ok": true, "warnings": [...]}, or
 *        {"ok": false, "error": "% ...\n% FILE:LINE: error: ..."} with the
 *        running configuration kept. A file that would remove roced's
 *        policy from every port it programs without saying so (no
 *        interface list: empty, or cut off while being written) is
 *        refused unless FORCE (default false). Needs the configure right.
 *        The reply of a reload that applied says "writes": N, its
 *        kernel writes.
 *   {"cmd": "reload", "dry-run": true, "file": "/etc/roced/new.conf"}
 *        Parse and compile FILE (optional: the configuration file) as a
 *        reload would, and apply nothing: {"ok": true, "plan-changed":
 *        bool, "ports-changed": N, "before": "...", "after": "...",
 *        "text": "..."}: the running and the candidate plan of every
 *        port as the dry run prints them (warnings left out) and the
 *        lines that differ; errors as a reload gives them. FILE must be
 *        in the configuration file's directory. "file" without
 *        "dry-run" is refused.
 *   {"cmd": "debug", "subsys": "dcbx", "on": true}   Needs configure.
 *   {"cmd": "pfc-queue", "op": "recover", "interface": "X",
 *    "qos-group": "3"}   `priority-flow-control recover interface X
 *        qos-group 3`: restore a queue the PFC watchdog shut.
 *   {"cmd": "pfc-queue", "op": "clear", "interface": "X" or "",
 *    "qos-group": ""}   `clear queuing pfc-queue [interface X]`: the
 *        watchdog's statistics back to 0.
 *   {"cmd": "pfc-queue", "op": "clear-qos", "interface": "X" or "",
 *    "qos-group": ""}   `clear qos statistics [interface X]`: the same,
 *        and the queuing and PFC counters of show queuing interface and
 *        show policy-map interface count from now on (roced keeps what
 *        the kernel held as a baseline). All three need configure.
 *   {"cmd": "checkpoint", "op": "create", "name": "N", "description": "D"}
 *        Keep the running configuration as checkpoint N (absent: the
 *        first free user-checkpoint-K), in roced's state directory.
 *        "op": "delete" removes N, "clear" every checkpoint; "rollback"
 *        makes N's configuration the running one through the one path
 *        (compile, diff, apply), atomically (any port refused or absent:
 *        nothing changes) unless "best-effort": true. The reply says
 *        "writes": N. Needs the configure right.
 *   {"cmd": "session", "op": "begin", "name": "S"}
 *        A configuration session: "begin" opens S (or resumes it),
 *        "line" (with "context" and "line", as config) checks LINE on the
 *        session's candidate and keeps it, "verify" replays the session
 *        on the running configuration and compiles it, "commit" applies
 *        it in one atomic change, "abort" discards it. Needs configure.
 *   {"cmd": "ping"}            {"ok": true, "version": "...", "pid": N,
 *        "config": "FILE", "writes": N}: WRITES counts every kernel
 *        write since roced started.
 * Errors: {"ok": false, "error": "% text"} for malformed JSON, an unknown
 * cmd, a missing, repeated or mistyped key, a request too large, or permission
 * denied (the peer's credentials from SO_PEERCRED: configure needs uid 0
 * or membership of the configured group; anyone who can connect may show
 * and ping).
 */
#ifndef ROCED_CTL_H
#define ROCED_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/strbuf.h"

#define CTL_MAX_REQUEST (64 * 1024)
#define CTL_MAX_REPLY   (4 * 1024 * 1024)
#define CTL_DIR         "/run/roced"

/* Where a client finds the control socket of roced in this process's
 * network namespace: /run/roced/roced.sock when the namespace is proved
 * to be init's (/proc/1/ns/net), /run/roced/roced.<netns-inode>.sock when
 * it is proved not to be (another namespace, or one `ip netns` named).
 * When that cannot be proved (not root, or a container that hides
 * /proc/1), the namespace's own socket when it exists, else the host's;
 * when it is proved to be the host's and roced.sock is absent, the
 * namespace's own (a roced that could not read /proc/1 made it).
 * Returns 0 or -errno (-ENAMETOOLONG when LEN is too small). */
int ctl_socket_path(char *buf, size_t len);
/* roced's own files (SUFFIX ".sock", ".pid", ".mtu", ...): the short name
 * only in a namespace proved to be the host's, else the name carries the
 * namespace's inode, so that two roced in two namespaces never share one. */
int ctl_state_path(char *buf, size_t len, const char *suffix);
/* The inode of this process's network namespace, 0 when unknown. */
unsigned long ctl_netns_inode(void);

/* Most context lines, arguments and bytes a request may carry. */
#define CTL_CONTEXT_MAX 3
#define CTL_LINE_MAX    512
#define CTL_CONTEXT_LEN 160
#define CTL_ARGS_MAX    24
#define CTL_ARG_LEN     64
#define CTL_NAME_LEN    64
#define CTL_JSON_DEPTH  8
#define CTL_PATH_LEN    256

/* The show commands, by their protocol name (a show request's "what").
 * This is the one table of them: rocesh's command language (lib/cmd)
 * names its show commands with these strings, roced looks a request's
 * "what" up with ctl_show_parse(). */
#define CTL_WHAT_RUNNING_CONFIG "show running-config"
#define CTL_WHAT_STARTUP_CONFIG "show startup-config"
#define CTL_WHAT_CLASS_MAP      "show class-map"
#define CTL_WHAT_POLICY_MAP     "show policy-map"
#define CTL_WHAT_POLICY_MAP_IF  "show policy-map interface"
#define CTL_WHAT_QUEUING_IF     "show queuing interface"
#define CTL_WHAT_PFC_IF         "show interface priority-flow-control"
#define CTL_WHAT_PFC_QUEUE      "show queuing pfc-queue"
#define CTL_WHAT_LLDP_DCBX      "show lldp dcbx interface"
/* LLDP */
#define CTL_WHAT_LLDP_NEIGHBORS "show lldp neighbors"
#define CTL_WHAT_LLDP_TRAFFIC   "show lldp traffic"
#define CTL_WHAT_LLDP_IF        "show lldp interface"
/* link pause */
#define CTL_WHAT_FC_IF "show interface flowcontrol"
/* Prometheus metrics */
#define CTL_WHAT_METRICS "show metrics"
/* the one-command RoCE mode, and the links' view of it */
#define CTL_WHAT_ROCE        "show roce"
#define CTL_WHAT_ROCE_FABRIC "show roce fabric"
/* the build, the kernel and what roced found it can do */
#define CTL_WHAT_VERSION "show version"
/* the links' counters with their pause frames */
#define CTL_WHAT_IF_COUNTERS "show interface counters"
/* checkpoints, rollback patches and configuration sessions */
#define CTL_WHAT_CKPT_SUMMARY "show checkpoint summary"
#define CTL_WHAT_CKPT         "show checkpoint"
#define CTL_WHAT_CKPT_DIFF    "show diff rollback-patch"
#define CTL_WHAT_SESSION      "show configuration session"

enum ctl_show {
	CTL_SHOW_RUNNING_CONFIG,
	CTL_SHOW_STARTUP_CONFIG,
	CTL_SHOW_CLASS_MAP,
	CTL_SHOW_POLICY_MAP,
	CTL_SHOW_POLICY_MAP_IF,
	CTL_SHOW_QUEUING_IF,
	CTL_SHOW_PFC_IF,
	CTL_SHOW_PFC_QUEUE,
	CTL_SHOW_LLDP_DCBX,
	/* LLDP */
	CTL_SHOW_LLDP_NEIGHBORS,
	CTL_SHOW_LLDP_TRAFFIC,
	CTL_SHOW_LLDP_IF,
	/* link pause */
	CTL_SHOW_FC_IF,
	/* Prometheus metrics */
	CTL_SHOW_METRICS,
	/* the RoCE mode */
	CTL_SHOW_ROCE,
	CTL_SHOW_ROCE_FABRIC,
	CTL_SHOW_VERSION,
	CTL_SHOW_IF_COUNTERS,
	/* checkpoints and sessions (daemon/control/ctl_ckpt.c answers) */
	CTL_SHOW_CKPT_SUMMARY,
	CTL_SHOW_CKPT,
	CTL_SHOW_CKPT_DIFF,
	CTL_SHOW_SESSION,
};
#define CTL_SHOW_COUNT (CTL_SHOW_SESSION + 1)

/* The "what" of show S ("?" when S is out of range), and its inverse:
 * the show named WHAT, or -EINVAL. */
const char *ctl_show_name(enum ctl_show s);
int ctl_show_parse(const char *what);

enum ctl_cmd {
	CTL_CMD_CONFIG,
	CTL_CMD_SHOW,
	CTL_CMD_COPY,
	CTL_CMD_RELOAD,
	CTL_CMD_DEBUG,
	CTL_CMD_PFC_QUEUE, /* the PFC watchdog's queues */
	CTL_CMD_PING,
	CTL_CMD_CHECKPOINT, /* checkpoints and rollback */
	CTL_CMD_SESSION,    /* configuration sessions */
};
#define CTL_CMD_COUNT (CTL_CMD_SESSION + 1)

/* A request that passed ctl_request_parse(): every key known, of the
 * right type and within its limits. */
struct ctl_request {
	enum ctl_cmd cmd;
	/* Set by ctl_request_parse even when it refuses the request: "cmd"
	 * named a known command, so that a request that may not be made
	 * at all is told so before what else is wrong with it. */
	bool cmd_known;
	/* config */
	char context[CTL_CONTEXT_MAX][CTL_CONTEXT_LEN];
	size_t ncontext;
	char line[CTL_LINE_MAX];
	/* show */
	char what[CTL_NAME_LEN];
	char args[CTL_ARGS_MAX][CTL_ARG_LEN];
	size_t nargs;
	bool json;
	/* copy: only running-config -> startup-config */
	char from[CTL_NAME_LEN], to[CTL_NAME_LEN];
	/* debug */
	char subsys[CTL_NAME_LEN];
	bool on;
	/* reload: even a file that removes roced's policy from every port */
	bool force;
	/* reload: only tell what a reload of FILE ("": the configuration
	 * file) would change in the running plan, apply nothing */
	bool dry_run;
	char file[CTL_PATH_LEN];
	/* pfc-queue: OP "recover" (IFACE, QOS_GROUP) or "clear" (IFACE, ""
	 * for every port) */
	char op[CTL_NAME_LEN];
	char iface[CTL_NAME_LEN];
	char qos_group[CTL_NAME_LEN];
	/* checkpoint: OP "create" (NAME, "" for an automatic name, and
	 * DESCR), "delete" (NAME), "clear" (every one), "rollback" (NAME,
	 * BEST_EFFORT). session: OP "begin", "line" (CONTEXT, LINE, as
	 * config), "verify", "commit" (CONFIRM) or "abort", of session
	 * NAME. */
	char name[CTL_NAME_LEN];
	char descr[CTL_CONTEXT_LEN];
	bool best_effort;
	/* session "commit": "" a plain commit, else the seconds (decimal)
	 * within which `commit` must confirm it (`commit confirmed N`) */
	char confirm[16];
};

/* Parse one request datagram (LEN bytes, not NUL-terminated). Strict: the
 * whole buffer must be one JSON object (nothing after it, nesting at most
 * CTL_JSON_DEPTH), "cmd" known, each key the command takes present with
 * its type, no other key, no key twice, strings without NUL bytes or
 * control characters, valid UTF-8 and within their limits, a show's
 * "what" one of the table above. Returns 0, or -EINVAL with the "% ..."
 * reason in ERR, which quotes the client's bytes only escaped (base/
 * escape.h): the reply stays valid UTF-8.
 */
int ctl_request_parse(const char *buf, size_t len, struct ctl_request *req,
                      char *err, size_t errlen);

/* Append R to OUT as one request datagram in the form ctl_request_parse()
 * reads: compact, every key R's command takes (optional ones too), each
 * string escaped where JSON needs it (quotes, backslashes, control
 * characters) and its other bytes, UTF-8 included, as they are. Whatever
 * ctl_request_parse() returns encodes to a datagram that parses back to
 * it, and no request encodes to more than CTL_MAX_REQUEST bytes.
 *
 * The contents are not judged: a string with a control character, a copy
 * the other way or an unknown show are sent, and roced refuses them as it
 * would anybody's. What has no encoding is refused with -EINVAL and the
 * "% ..." reason in ERR: an unknown cmd, a string that fills its member
 * without a NUL ("too long", as the parser says), more items than an
 * array holds. Returns 0, -EINVAL, or -ENOMEM when OUT cannot grow. */
int ctl_request_encode(const struct ctl_request *r, struct strbuf *out,
                       char *err, size_t errlen);
/* Copy S into the string member DST (SIZE bytes) of a request to encode.
 * A longer S fills DST without a NUL, which ctl_request_encode() refuses
 * as too long: a name cut short would name something else. */
void ctl_request_set(char *dst, size_t size, const char *s);
const char *ctl_cmd_name(enum ctl_cmd c);
/* Does the request change something (needs the configure right)? */
bool ctl_cmd_configures(enum ctl_cmd c);

/* Who is on the other end of a connection (SO_PEERCRED, SO_PEERGROUPS). */
#define CTL_PEER_GROUPS_MAX 64
struct ctl_peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	gid_t groups[CTL_PEER_GROUPS_MAX];
	size_t ngroups;
};

/* Configure right: uid 0, or GROUP (when HAVE_GROUP) as the primary or a
 * supplementary group of the peer. */
bool ctl_peer_may_configure(const struct ctl_peer *p, bool have_group,
                            gid_t group);
/* The supplementary groups of a /proc/PID/status text ("Groups:" line),
 * for kernels without SO_PEERGROUPS. Returns how many were stored (at most
 * MAX), or -EINVAL when the line is missing or malformed. */
int ctl_status_groups(const char *status, gid_t *groups, size_t max);

#endif
