/* ctl: the control socket between roced and rocesh (and scripts).
 *
 * Transport: a Unix SOCK_SEQPACKET socket, so each datagram is one whole
 * request or reply. The path is ctl_socket_path(): /run/roced/roced.sock
 * in the host's network namespace, /run/roced/roced.<netns-inode>.sock in
 * any other (one roced per namespace, like the kernel state it owns).
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
 *        policy, carry out LINE (lib/cmd.h), validate, compile and apply.
 *        Reply {"ok": true, "context": [...], "mode": "config-pmap-c-que",
 *        "warnings": ["..."]}; on error {"ok": false, "error": "% ...",
 *        "pos": N} and nothing changes. Needs the configure right.
 *   {"cmd": "show", "what": "NAME", "args": ["..."], "json": bool}
 *        NAME is cmd_parsed.name of a show command ("show running-config",
 *        "show queuing interface", ...), ARGS its canonical arguments.
 *        Reply {"ok": true, "data": {...}} where DATA is the structured
 *        answer (what `json` prints), and "text": "..." with the NX-OS
 *        style rendering, produced by the same code path.
 *   {"cmd": "copy", "from": "running-config", "to": "startup-config"}
 *        Write the running policy to the config file atomically (temporary
 *        file, fsync, rename; the previous file kept as FILE.bak). Needs the
 *        configure right.
 *   {"cmd": "reload"}          Same as SIGHUP. Needs the configure right.
 *   {"cmd": "debug", "subsys": "dcbx", "on": true}   Needs configure.
 *   {"cmd": "ping"}            {"ok": true, "version": "..."}
 * Errors: {"ok": false, "error": "% text"} for malformed JSON, an unknown
 * cmd, a missing or mistyped key, a request too large, or permission
 * denied (the peer's credentials from SO_PEERCRED: configure needs uid 0
 * or membership of the configured group; anyone who can connect may show
 * and ping).
 */
#ifndef ROCED_CTL_H
#define ROCED_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CTL_MAX_REQUEST (64 * 1024)
#define CTL_MAX_REPLY   (4 * 1024 * 1024)
#define CTL_DIR         "/run/roced"

/* The control socket path for this process's network namespace. */
int ctl_socket_path(char *buf, size_t len);

#endif
