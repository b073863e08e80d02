/* cmd_ckpt: see cmd_ckpt.h. The rows of the checkpoint and session
 * commands, the names they take and the checkpoint's file form (its
 * text and the rollback patch are cmd_ckpt_text.c's).
 */
#include "cmd/cmd_ckpt.h"
#include "cmd/cmd_int.h"
#include "ctl/ctl.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rows ---- */

/* `configure session NAME`: configuration mode, whose configuration
 * lines rocesh sends to the session instead of the running policy. */
static int cmd_ckpt_session(struct cmd_exec_arg *x)
{
	cmd_ctx_reset(x->ctx);
	x->ctx->mode = CMD_MODE_CONFIG;
	return 0;
}

#define H_SHOW  "Show running system information\n"
#define H_CKPT  "Create a checkpoint of the running configuration\n"
#define H_CNAME "Checkpoint name (max 32 characters)\n"
#define H_SNAME "Session name (max 32 characters)\n"
#define H_SESS  "Configuration sessions\n"

static const struct cmd_def cmd_ckpt_table[] = {
    {CMD_M(CMD_MODE_EXEC), CMD_KIND_ACTION, "checkpoint",
     "checkpoint [WORD] [description TEXT]",
     H_CKPT H_CNAME "Describe the checkpoint\nDescription (max 80 "
                    "characters)\n",
     NULL},
    {CMD_M(CMD_MODE_EXEC), CMD_KIND_ACTION, "checkpoint", "no checkpoint WORD",
     CMD_HELP_NO H_CKPT H_CNAME, NULL},
    {CMD_M(CMD_MODE_EXEC), CMD_KIND_ACTION, "clear checkpoint database",
     "clear checkpoint database",
     "Reset functions\nCheckpoints\nRemove every checkpoint\n", NULL},
    {CMD_M(CMD_MODE_EXEC), CMD_KIND_ACTION, "rollback running-config",
     "rollback running-config checkpoint WORD [atomic|best-effort]",
     "Roll the configuration back to a checkpoint\n"
     "Current operating configuration\nTo a checkpoint\n" H_CNAME
     "Change nothing when any part fails (default)\n"
     "Apply what can be applied, report the rest\n",
     NULL},
    {CMD_M_ALL, CMD_KIND_SHOW, CTL_WHAT_CKPT_SUMMARY, CTL_WHAT_CKPT_SUMMARY,
     H_SHOW "Checkpoints of the configuration\nEvery checkpoint, briefly\n",
     NULL},
    {CMD_M_ALL, CMD_KIND_SHOW, CTL_WHAT_CKPT, CTL_WHAT_CKPT " WORD",
     H_SHOW "Checkpoints of the configuration\n" H_CNAME, NULL},
    {CMD_M_ALL, CMD_KIND_SHOW, CTL_WHAT_CKPT_DIFF,
     CTL_WHAT_CKPT_DIFF " checkpoint WORD (checkpoint WORD|running-config)",
     H_SHOW "Differences between configurations\n"
            "What a rollback would change\nFrom a checkpoint\n" H_CNAME
            "To another checkpoint\n" H_CNAME "To the running configuration\n",
     NULL},
    {CMD_M(CMD_MODE_EXEC), CMD_KIND_MODE, "configure session",
     "configure session WORD",
     "Enter configuration mode\nA configuration session: its changes "
     "apply together, at commit\n" H_SNAME,
     cmd_ckpt_session},
    {CMD_M_ALL, CMD_KIND_SHOW, CTL_WHAT_SESSION, CTL_WHAT_SESSION " [WORD]",
     H_SHOW "Configuration\n" H_SESS H_SNAME, NULL},
    /* A session's own, matched only in a session: the last
     * CMD_CKPT_SESSION_ROWS rows. */
    {CMD_M_CONFIGS, CMD_KIND_ACTION, "verify", "verify",
     "Check the session's changes on the running configuration\n", NULL},
    {CMD_M_CONFIGS, CMD_KIND_ACTION, "commit", "commit [confirmed <1-86400>]",
     "Apply the session's changes, all or none (and confirm a confirmed "
     "commit)\n"
     "Roll back unless confirmed by `commit` in time\n"
     "Seconds to confirm in\n",
     NULL},
    {CMD_M_CONFIGS, CMD_KIND_ACTION, "abort", "abort",
     "Discard the session and leave it\n", NULL},
};

const struct cmd_table cmd_ckpt = {cmd_ckpt_table, sizeof(cmd_ckpt_table) /
                                                       sizeof(*cmd_ckpt_table)};

/* ---- names ---- */

int cmd_ckpt_name_ok(const char *name, char *why, size_t len)
{
	size_t n = strlen(name);

	if (!n || n >= CMD_CKPT_NAME_MAX) {
		snprintf(why, len, "a name has 1 to %d characters",
		         CMD_CKPT_NAME_MAX - 1);
		return -1;
	}
	/* The name is a file's in the state directory: no '/', no "." or
	 * "..", nothing an option parser or a hidden file would take. */
	for (const char *s = name; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s)) {
			snprintf(why, len,
			         "'%c' is not allowed in a name (letters, "
			         "digits, '-', '_' and '.')",
			         *s);
			return -1;
		}
	if (name[0] == '.' || name[0] == '-') {
		snprintf(why, len, "a name does not start with '%c'", name[0]);
		return -1;
	}
	if (!strncmp(name, "system", 6)) {
		snprintf(why, len,
		         "names starting with 'system' are kept "
		         "for the system's checkpoints");
		return -1;
	}
	return 0;
}

uint64_t cmd_ckpt_sum(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* ---- the file ---- */

#define CMD_CKPT_MAGIC "# roced checkpoint 1"

void cmd_ckpt_format(struct cmd_ckpt_meta *m, const char *body,
                     struct strbuf *out)
{
	m->size = strlen(body);
	m->sum = cmd_ckpt_sum(body, m->size);
	strbuf_printf(out,
	              CMD_CKPT_MAGIC
	              "\n"
	              "# Written by roced: a file changed by hand is refused.\n"
	              "name %s\ncreated %" PRId64 "\nuser %" PRIu32 "\n",
	              m->name, m->created, m->uid);
	if (m->descr[0])
		strbuf_printf(out, "description %s\n", m->descr);
	if (m->rollback_at)
		strbuf_printf(out, "rollback-at %" PRId64 "\n", m->rollback_at);
	strbuf_printf(out, "size %zu\nfnv1a64 %016" PRIx64 "\n\n%s", m->size,
	              m->sum, body);
}

/* One header line "KEY VALUE" of a checkpoint file into M. */
static int cmd_ckpt_header(const char *key, const char *val,
                           struct cmd_ckpt_meta *m, unsigned *seen)
{
	char *end;

	if (!strcmp(key, "name")) {
		if (strlen(val) >= sizeof(m->name))
			return -1;
		snprintf(m->name, sizeof(m->name), "%s", val);
		*seen |= 1;
		return 0;
	}
	if (!strcmp(key, "description")) {
		if (strlen(val) >= sizeof(m->descr))
			return -1;
		snprintf(m->descr, sizeof(m->descr), "%s", val);
		return 0;
	}
	if (!*val || !isxdigit((unsigned char)*val))
		return -1;
	if (!strcmp(key, "created")) {
		m->created = strtoll(val, &end, 10);
		*seen |= 2;
	} else if (!strcmp(key, "user")) {
		m->uid = (uint32_t)strtoul(val, &end, 10);
		*seen |= 4;
	} else if (!strcmp(key, "size")) {
		m->size = strtoull(val, &end, 10);
		*seen |= 8;
	} else if (!strcmp(key, "fnv1a64")) {
		m->sum = strtoull(val, &end, 16);
		*seen |= 16;
	} else if (!strcmp(key, "rollback-at")) {
		m->rollback_at = strtoll(val, &end, 10);
		if (m->rollback_at <= 0)
			return -1;
	} else {
		return -1;
	}
	return *end ? -1 : 0;
}

int cmd_ckpt_parse(const char *buf, size_t len, struct cmd_ckpt_meta *m,
                   const char **body, size_t *bodylen, char *err, size_t errlen)
{
	size_t off = 0, ml = strlen(CMD_CKPT_MAGIC);
	unsigned lineno = 0, seen = 0;

	memset(m, 0, sizeof(*m));
	if (len < ml || memcmp(buf, CMD_CKPT_MAGIC, ml) ||
	    (len > ml && buf[ml] != '\n')) {
		snprintf(err, errlen, "not a roced checkpoint (no '%s' line)",
		         CMD_CKPT_MAGIC);
		return -1;
	}
	/* The header, up to its blank line. */
	for (;;) {
		const char *nl = memchr(buf + off, '\n', len - off);
		char line[160], *sp;
		size_t n;

		lineno++;
		if (!nl) {
			snprintf(err, errlen,
			         "cut short in its header (line %u)", lineno);
			return -1;
		}
		n = (size_t)(nl - (buf + off));
		if (n >= sizeof(line)) {
			snprintf(err, errlen, "line %u: too long", lineno);
			return -1;
		}
		memcpy(line, buf + off, n);
		line[n] = '\0';
		off += n + 1;
		if (!n)
			break;
		if (line[0] == '#')
			continue;
		sp = strchr(line, ' ');
		if (sp)
			*sp++ = '\0';
		if (!sp || cmd_ckpt_header(line, sp, m, &seen) < 0) {
			snprintf(err, errlen,
			         "line %u: '%.40s' is not a header line of "
			         "roced's",
			         lineno, line);
			return -1;
		}
	}
	if (seen != 31) {
		snprintf(err, errlen,
		         "its header lacks name, created, user, size or "
		         "fnv1a64");
		return -1;
	}
	*body = buf + off;
	*bodylen = len - off;
	if (*bodylen < m->size) {
		snprintf(err, errlen,
		         "cut short: it holds %zu of its %zu bytes", *bodylen,
		         m->size);
		return -1;
	}
	if (*bodylen > m->size) {
		snprintf(err, errlen,
		         "%zu bytes more than its header says: changed by hand",
		         *bodylen - m->size);
		return -1;
	}
	if (cmd_ckpt_sum(*body, *bodylen) != m->sum) {
		snprintf(err, errlen,
		         "its checksum does not match: changed by hand");
		return -1;
	}
	return 0;
}
