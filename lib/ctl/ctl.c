/* ctl: the control protocol's pure parts (see ctl.h): where the socket
 * lives, the names of the show commands, strict request parsing and its
 * inverse, the encoder, and who may configure. The socket server itself
 * is daemon/control/ctl_srv.c, the client cli/client.c.
 */
#include "ctl/ctl.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "base/escape.h"

/* --- paths --- */

unsigned long ctl_netns_inode(void)
{
	struct stat st;

	if (stat("/proc/self/ns/net", &st) < 0)
		return 0;
	return (unsigned long)st.st_ino;
}

/* Is INO a namespace that `ip netns add` named (bind-mounted under
 * /run/netns)? Such a namespace is never the host's. */
static bool ctl_named_netns(unsigned long ino)
{
	struct dirent *de;
	bool found = false;
	DIR *d;

	d = opendir("/run/netns");
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char path[300];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/run/netns/%s", de->d_name);
		found = stat(path, &st) == 0 && (unsigned long)st.st_ino == ino;
	}
	closedir(d);
	return found;
}

/* 1: this process's network namespace is init's (the host's), 0: it is
 * not, -1: that cannot be proved (/proc/1/ns/net may not be read: not
 * root, or a container that hides it). *INO: this namespace's inode. */
static int ctl_netns_host(unsigned long *ino)
{
	struct stat self, init;

	*ino = 0;
	if (stat("/proc/self/ns/net", &self) < 0)
		return -1;
	*ino = (unsigned long)self.st_ino;
	if (stat("/proc/1/ns/net", &init) == 0)
		return self.st_ino == init.st_ino && self.st_dev == init.st_dev;
	/* A namespace `ip netns add` named is never the host's. */
	return ctl_named_netns(*ino) ? 0 : -1;
}

static int ctl_path(char *buf, size_t len, bool host, unsigned long ino,
                    const char *suffix)
{
	int n;

	if (host)
		n = snprintf(buf, len, "%s/roced%s", CTL_DIR, suffix);
	else
		n = snprintf(buf, len, "%s/roced.%lu%s", CTL_DIR, ino, suffix);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int ctl_state_path(char *buf, size_t len, const char *suffix)
{
	unsigned long ino;
	int host = ctl_netns_host(&ino);

	if (!ino)
		return -ENOENT;
	/* Only a namespace proved to be the host's takes the short names:
	 * two roced in two unnamed namespaces of a container must never
	 * share a socket, a pid file or a state file. */
	return ctl_path(buf, len, host == 1, ino, suffix);
}

int ctl_socket_path(char *buf, size_t len)
{
	unsigned long ino;
	int host = ctl_netns_host(&ino), rc;
	struct stat st;

	if (!ino)
		return -ENOENT;
	rc = ctl_path(buf, len, host == 1, ino, ".sock");
	if (rc < 0 || host == 0)
		return rc;
	/* The name the client chose first, when its roced made it; else the
	 * other name of this same namespace. Unproved here: the host's (a
	 * user who may not look at /proc/1 on the host itself, where roced
	 * proved its namespace and took the short name). Proved here: the
	 * one named by this namespace's inode, which a roced that could not
	 * prove it took (under the unit, without CAP_SYS_PTRACE, /proc/1 is
	 * closed to it); only a roced in this namespace can have made it. */
	if (stat(buf, &st) == 0)
		return 0;
	return ctl_path(buf, len, host != 1, ino, ".sock");
}

/* --- show names --- */

static const char *const ctl_show_names[CTL_SHOW_COUNT] = {
    [CTL_SHOW_RUNNING_CONFIG] = CTL_WHAT_RUNNING_CONFIG,
    [CTL_SHOW_STARTUP_CONFIG] = CTL_WHAT_STARTUP_CONFIG,
    [CTL_SHOW_CLASS_MAP] = CTL_WHAT_CLASS_MAP,
    [CTL_SHOW_POLICY_MAP] = CTL_WHAT_POLICY_MAP,
    [CTL_SHOW_POLICY_MAP_IF] = CTL_WHAT_POLICY_MAP_IF,
    [CTL_SHOW_QUEUING_IF] = CTL_WHAT_QUEUING_IF,
    [CTL_SHOW_PFC_IF] = CTL_WHAT_PFC_IF,
    [CTL_SHOW_PFC_QUEUE] = CTL_WHAT_PFC_QUEUE,
    [CTL_SHOW_LLDP_DCBX] = CTL_WHAT_LLDP_DCBX,
    [CTL_SHOW_LLDP_NEIGHBORS] = CTL_WHAT_LLDP_NEIGHBORS,
    [CTL_SHOW_LLDP_TRAFFIC] = CTL_WHAT_LLDP_TRAFFIC,
    [CTL_SHOW_LLDP_IF] = CTL_WHAT_LLDP_IF,
    [CTL_SHOW_FC_IF] = CTL_WHAT_FC_IF,
    [CTL_SHOW_METRICS] = CTL_WHAT_METRICS,
    [CTL_SHOW_ROCE] = CTL_WHAT_ROCE,
    [CTL_SHOW_ROCE_FABRIC] = CTL_WHAT_ROCE_FABRIC,
    [CTL_SHOW_VERSION] = CTL_WHAT_VERSION,
    [CTL_SHOW_IF_COUNTERS] = CTL_WHAT_IF_COUNTERS,
    [CTL_SHOW_CKPT_SUMMARY] = CTL_WHAT_CKPT_SUMMARY,
    [CTL_SHOW_CKPT] = CTL_WHAT_CKPT,
    [CTL_SHOW_CKPT_DIFF] = CTL_WHAT_CKPT_DIFF,
    [CTL_SHOW_SESSION] = CTL_WHAT_SESSION,
};

const char *ctl_show_name(enum ctl_show s)
{
	return (unsigned)s < CTL_SHOW_COUNT ? ctl_show_names[s] : "?";
}

int ctl_show_parse(const char *what)
{
	for (int i = 0; i < CTL_SHOW_COUNT; i++)
		if (!strcmp(what, ctl_show_names[i]))
			return i;
	return -EINVAL;
}

/* --- requests --- */

static const char *const ctl_cmd_names[] = {
    [CTL_CMD_CONFIG] = "config",       [CTL_CMD_SHOW] = "show",
    [CTL_CMD_COPY] = "copy",           [CTL_CMD_RELOAD] = "reload",
    [CTL_CMD_DEBUG] = "debug",         [CTL_CMD_PING] = "ping",
    [CTL_CMD_PFC_QUEUE] = "pfc-queue", [CTL_CMD_CHECKPOINT] = "checkpoint",
    [CTL_CMD_SESSION] = "session",
};

/* The keys each command takes besides "cmd", in the order the encoder
 * writes them, and where each lives in struct ctl_request: the parser
 * and the encoder both walk these tables, so that they cannot disagree
 * on a name or a limit. */
struct ctl_key {
	const char *name;
	json_type type;
	bool optional;
	bool dflt;    /* a boolean's value when absent */
	size_t off;   /* the member */
	size_t size;  /* a string's bytes, or one item's in an array */
	size_t max;   /* an array's items at most */
	size_t count; /* an array's item count member */
};

#define CTL_MEMBER_SIZE(m) sizeof(((struct ctl_request *)0)->m)
#define CTL_OFF(m)         offsetof(struct ctl_request, m)
/* A required string, an optional array of strings, an optional boolean
 * with its default. */
#define CTL_STR(key, m)                                                        \
	{                                                                      \
		.name = key, .type = json_type_string, .off = CTL_OFF(m),      \
		.size = CTL_MEMBER_SIZE(m)                                     \
	}
#define CTL_STRS(key, m, n)                                                    \
	{                                                                      \
		.name = key, .type = json_type_array, .optional = true,        \
		.off = CTL_OFF(m), .size = CTL_MEMBER_SIZE(m[0]),              \
		.max = CTL_MEMBER_SIZE(m) / CTL_MEMBER_SIZE(m[0]),             \
		.count = CTL_OFF(n)                                            \
	}
/* An optional string: absent, it is "" (the command's default). */
#define CTL_OPTSTR(key, m)                                                     \
	{                                                                      \
		.name = key, .type = json_type_string, .optional = true,       \
		.off = CTL_OFF(m), .size = CTL_MEMBER_SIZE(m)                  \
	}
#define CTL_BOOL(key, m, d)                                                    \
	{                                                                      \
		.name = key, .type = json_type_boolean, .optional = true,      \
		.dflt = d, .off = CTL_OFF(m)                                   \
	}
#define CTL_END                                                                \
	{                                                                      \
		.name = NULL                                                   \
	}

static const struct ctl_key ctl_keys_config[] = {
    CTL_STRS("context", context, ncontext),
    CTL_STR("line", line),
    CTL_END,
};
static const struct ctl_key ctl_keys_show[] = {
    CTL_STR("what", what),
    CTL_STRS("args", args, nargs),
    CTL_BOOL("json", json, false),
    CTL_END,
};
static const struct ctl_key ctl_keys_copy[] = {
    CTL_STR("from", from),
    CTL_STR("to", to),
    CTL_END,
};
static const struct ctl_key ctl_keys_debug[] = {
    CTL_STR("subsys", subsys),
    CTL_BOOL("on", on, true),
    CTL_END,
};
static const struct ctl_key ctl_keys_reload[] = {
    CTL_BOOL("force", force, false),
    CTL_BOOL("dry-run", dry_run, false),
    CTL_OPTSTR("file", file),
    CTL_END,
};
static const struct ctl_key ctl_keys_pfc_queue[] = {
    CTL_STR("op", op),
    CTL_STR("interface", iface),
    CTL_STR("qos-group", qos_group),
    CTL_END,
};
static const struct ctl_key ctl_keys_checkpoint[] = {
    CTL_STR("op", op),
    CTL_OPTSTR("name", name),
    CTL_OPTSTR("description", descr),
    CTL_BOOL("best-effort", best_effort, false),
    CTL_END,
};
static const struct ctl_key ctl_keys_session[] = {
    CTL_STR("op", op),
    CTL_STR("name", name),
    CTL_STRS("context", context, ncontext),
    CTL_OPTSTR("line", line),
    CTL_OPTSTR("confirm", confirm),
    CTL_END,
};
static const struct ctl_key ctl_keys_none[] = {
    CTL_END,
};

static const struct ctl_key *const ctl_cmd_keys[] = {
    [CTL_CMD_CONFIG] = ctl_keys_config,
    [CTL_CMD_SHOW] = ctl_keys_show,
    [CTL_CMD_COPY] = ctl_keys_copy,
    [CTL_CMD_RELOAD] = ctl_keys_reload,
    [CTL_CMD_DEBUG] = ctl_keys_debug,
    [CTL_CMD_PING] = ctl_keys_none,
    [CTL_CMD_PFC_QUEUE] = ctl_keys_pfc_queue,
    [CTL_CMD_CHECKPOINT] = ctl_keys_checkpoint,
    [CTL_CMD_SESSION] = ctl_keys_session,
};

/* The most a string member of N bytes takes encoded: every byte a
 * six-byte \u escape, two quotes and a comma. The largest request of each
 * command, keys and punctuation included, must fit a datagram the daemon
 * reads, so that the encoder never has to refuse one for its size. */
#define CTL_WORST(n) ((n)*6 + 3)
_Static_assert(CTL_ARGS_MAX *CTL_WORST(CTL_ARG_LEN) + CTL_WORST(CTL_NAME_LEN) +
                       100 <=
                   CTL_MAX_REQUEST,
               "the largest show request must fit CTL_MAX_REQUEST");
_Static_assert(CTL_CONTEXT_MAX *CTL_WORST(CTL_CONTEXT_LEN) +
                       CTL_WORST(CTL_LINE_MAX) + 100 <=
                   CTL_MAX_REQUEST,
               "the largest config request must fit CTL_MAX_REQUEST");

const char *ctl_cmd_name(enum ctl_cmd c)
{
	return (unsigned)c < CTL_CMD_COUNT ? ctl_cmd_names[c] : "?";
}

bool ctl_cmd_configures(enum ctl_cmd c)
{
	return c == CTL_CMD_CONFIG || c == CTL_CMD_COPY ||
	       c == CTL_CMD_RELOAD || c == CTL_CMD_DEBUG ||
	       c == CTL_CMD_PFC_QUEUE || c == CTL_CMD_CHECKPOINT ||
	       c == CTL_CMD_SESSION;
}

static const char *ctl_type_name(json_type t)
{
	switch (t) {
	case json_type_boolean:
		return "a boolean";
	case json_type_string:
		return "a string";
	case json_type_array:
		return "an array";
	case json_type_object:
		return "an object";
	case json_type_int:
	case json_type_double:
		return "a number";
	default:
		return "null";
	}
}

/* Control characters by their code, whatever the locale: roced and rocesh
 * must draw the same line. */
static bool ctl_is_cntrl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static int ctl_too_long(const char *what, size_t size, char *err, size_t errlen)
{
	snprintf(err, errlen, "%% '%s' is too long (at most %zu bytes)", what,
	         size - 1);
	return -EINVAL;
}

static int ctl_too_many(const char *what, size_t count, size_t max, char *err,
                        size_t errlen)
{
	snprintf(err, errlen, "%% '%s' has %zu items, at most %zu", what, count,
	         max);
	return -EINVAL;
}

/* Copy string O into DST (SIZE bytes): refuses embedded NUL bytes, which
 * would make the C string say less than the JSON one, and control
 * characters, which have no place in a command line. */
static int ctl_copy_str(struct json_object *o, const char *what, char *dst,
                        size_t size, char *err, size_t errlen)
{
	const char *s = json_object_get_string(o);
	int len = json_object_get_string_len(o);

	if (!json_object_is_type(o, json_type_string)) {
		snprintf(err, errlen, "%% '%s' must be a string", what);
		return -EINVAL;
	}
	if (len < 0 || (size_t)len >= size)
		return ctl_too_long(what, size, err, errlen);
	for (int i = 0; i < len; i++)
		if (ctl_is_cntrl((unsigned char)s[i])) {
			snprintf(err, errlen,
			         "%% '%s' holds a control character", what);
			return -EINVAL;
		}
	if (!escape_is_clean(s, (size_t)len, false)) {
		snprintf(err, errlen, "%% '%s' is not valid UTF-8 text", what);
		return -EINVAL;
	}
	memcpy(dst, s, (size_t)len);
	dst[len] = '\0';
	return 0;
}

/* An array of strings into DST[MAX][LEN]. */
static int ctl_copy_strs(struct json_object *a, const char *what, char *dst,
                         size_t max, size_t len, size_t *n, char *err,
                         size_t errlen)
{
	size_t count = json_object_array_length(a);

	if (count > max)
		return ctl_too_many(what, count, max, err, errlen);
	for (size_t i = 0; i < count; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		char name[48];

		snprintf(name, sizeof(name), "%s[%zu]", what, i);
		if (ctl_copy_str(o, name, dst + i * len, len, err, errlen) < 0)
			return -EINVAL;
	}
	*n = count;
	return 0;
}

static int ctl_check_keys(struct json_object *obj, const struct ctl_key *keys,
                          const char *cmd, char *err, size_t errlen)
{
	json_object_object_foreach(obj, key, val)
	{
		const struct ctl_key *k;

		if (!strcmp(key, "cmd"))
			continue;
		for (k = keys; k->name; k++)
			if (!strcmp(k->name, key))
				break;
		if (!k->name) {
			char q[4 * 64 + 1];

			escape_buf(q, sizeof(q), key, strnlen(key, 64),
			           ESCAPE_BACKSLASH);
			snprintf(err, errlen,
			         "%% unknown key '%s' in a %s request", q, cmd);
			return -EINVAL;
		}
		if (!json_object_is_type(val, k->type)) {
			snprintf(err, errlen, "%% '%s' must be %s", k->name,
			         ctl_type_name(k->type));
			return -EINVAL;
		}
	}
	for (const struct ctl_key *k = keys; k->name; k++)
		if (!k->optional &&
		    !json_object_object_get_ex(obj, k->name, NULL)) {
			snprintf(err, errlen, "%% a %s request needs '%s'", cmd,
			         k->name);
			return -EINVAL;
		}
	return 0;
}

/* Each key of R's command from OBJ (whose keys and types were checked)
 * into its member of R. */
static int ctl_fill(struct json_object *obj, struct ctl_request *r, char *err,
                    size_t errlen)
{
	for (const struct ctl_key *k = ctl_cmd_keys[r->cmd]; k->name; k++) {
		char *m = (char *)r + k->off;
		struct json_object *v = NULL;
		int rc = 0;

		json_object_object_get_ex(obj, k->name, &v);
		switch (k->type) {
		case json_type_string:
			if (v || !k->optional)
				rc = ctl_copy_str(v, k->name, m, k->size, err,
				                  errlen);
			break;
		case json_type_array:
			if (v)
				rc = ctl_copy_strs(
				    v, k->name, m, k->max, k->size,
				    (size_t *)((char *)r + k->count), err,
				    errlen);
			break;
		default:
			*(bool *)m = v ? json_object_get_boolean(v) : k->dflt;
			break;
		}
		if (rc < 0)
			return rc;
	}
	if (r->cmd == CTL_CMD_SHOW && ctl_show_parse(r->what) < 0) {
		snprintf(err, errlen, "%% unknown show command '%.64s'",
		         r->what);
		return -EINVAL;
	}
	/* A reload reads the configuration file: another file is only
	 * ever looked at, never applied. */
	if (r->cmd == CTL_CMD_RELOAD && r->file[0] && !r->dry_run) {
		snprintf(err, errlen,
		         "%% 'file' needs 'dry-run': a reload applies the "
		         "configuration file only");
		return -EINVAL;
	}
	/* NX-OS copies other ways too; roced has these two only. */
	if (r->cmd == CTL_CMD_COPY && (strcmp(r->from, "running-config") ||
	                               strcmp(r->to, "startup-config"))) {
		snprintf(err, errlen,
		         "%% roced copies running-config to "
		         "startup-config only");
		return -EINVAL;
	}
	return 0;
}

/* The key KEY (LEN bytes of JSON text, quotes included) not in SEEN yet;
 * added to it. TOK decodes it as the parser did. */
static int ctl_key_once(struct json_tokener *tok, struct json_object *seen,
                        const char *key, size_t len, char *err, size_t errlen)
{
	struct json_object *o;
	const char *s;
	int rc = -EINVAL;

	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, key, (int)len);
	s = json_object_get_string(o);
	if (!o || !json_object_is_type(o, json_type_string))
		snprintf(err, errlen, "%% malformed JSON: a key");
	else if (strlen(s) != (size_t)json_object_get_string_len(o))
		snprintf(err, errlen, "%% a key holds a NUL byte");
	else if (json_object_object_get_ex(seen, s, NULL))
		snprintf(err, errlen, "%% key '%.64s' appears twice", s);
	else
		rc = json_object_object_add(seen, s, NULL) < 0 ? -ENOMEM : 0;
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%% out of memory");
	json_object_put(o);
	return rc;
}

/* The member keys of the top-level object, each once. json-c keeps the
 * last of two equal keys without a word, so {"cmd":"ping","cmd":"reload"}
 * would reload, and it cuts a key at an escaped NUL, so "cmd\u0000x" would
 * be "cmd": this reads the keys again from the text json-c accepted (the
 * first END bytes of BUF, one strict JSON object) and decodes each with
 * json-c itself. Only the top level matters: a request's values are
 * strings, arrays of strings and booleans, and anything else is refused
 * by its type. */
static int ctl_check_unique(const char *buf, size_t end, char *err,
                            size_t errlen)
{
	struct json_tokener *tok = json_tokener_new_ex(1);
	struct json_object *seen = json_object_new_object();
	bool want_key = false;
	int depth = 0, rc = 0;

	if (!tok || !seen) {
		snprintf(err, errlen, "%% out of memory");
		rc = -ENOMEM;
		goto out;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	for (size_t i = 0; i < end && !rc; i++) {
		size_t j;

		switch (buf[i]) {
		case '"':
			for (j = i + 1; j < end && buf[j] != '"'; j++)
				if (buf[j] == '\\')
					j++;
			if (depth == 1 && want_key && j < end)
				rc = ctl_key_once(tok, seen, buf + i, j + 1 - i,
				                  err, errlen);
			want_key = false;
			i = j;
			break;
		case '{':
		case '[':
			want_key = ++depth == 1 && buf[i] == '{';
			break;
		case '}':
		case ']':
			depth--;
			break;
		case ',':
			want_key = depth == 1;
			break;
		}
	}
out:
	json_object_put(seen);
	if (tok)
		json_tokener_free(tok);
	return rc;
}

int ctl_request_parse(const char *buf, size_t len, struct ctl_request *r,
                      char *err, size_t errlen)
{
	struct json_tokener *tok;
	struct json_object *obj, *cmd;
	const char *name;
	int rc = -EINVAL;
	size_t i, end;

	memset(r, 0, sizeof(*r));
	if (len > CTL_MAX_REQUEST || len > (size_t)INT32_MAX) {
		snprintf(err, errlen, "%% request too large (at most %d bytes)",
		         CTL_MAX_REQUEST);
		return -EINVAL;
	}
	if (memchr(buf, '\0', len)) {
		snprintf(err, errlen, "%% malformed request: a NUL byte");
		return -EINVAL;
	}
	tok = json_tokener_new_ex(CTL_JSON_DEPTH);
	if (!tok) {
		snprintf(err, errlen, "%% out of memory");
		return -ENOMEM;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, buf, (int)len);
	if (!obj) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		snprintf(err, errlen, "%% malformed JSON: %s",
		         e == json_tokener_continue
		             ? "the request ends inside a value"
		             : json_tokener_error_desc(e));
		goto out_tok;
	}
	/* One object and nothing after it but white space. */
	end = json_tokener_get_parse_end(tok);
	for (i = end; i < len; i++)
		if (!isspace((unsigned char)buf[i]))
			break;
	if (i < len) {
		snprintf(err, errlen,
		         "%% malformed JSON: text after the request object");
		goto out;
	}
	if (!json_object_is_type(obj, json_type_object)) {
		snprintf(err, errlen, "%% a request must be a JSON object");
		goto out;
	}
	rc = ctl_check_unique(buf, end, err, errlen);
	if (rc < 0)
		goto out;
	rc = -EINVAL;
	if (!json_object_object_get_ex(obj, "cmd", &cmd)) {
		snprintf(err, errlen, "%% a request needs 'cmd'");
		goto out;
	}
	if (!json_object_is_type(cmd, json_type_string)) {
		snprintf(err, errlen, "%% 'cmd' must be a string");
		goto out;
	}
	name = json_object_get_string(cmd);
	for (i = 0; i < CTL_CMD_COUNT; i++)
		if (!strcmp(name, ctl_cmd_names[i]))
			break;
	if (i >= CTL_CMD_COUNT) {
		char q[4 * 64 + 1];

		escape_buf(q, sizeof(q), name, strnlen(name, 64),
		           ESCAPE_BACKSLASH);
		snprintf(err, errlen,
		         "%% unknown cmd '%s', expected config, show, copy, "
		         "reload, debug, pfc-queue, checkpoint, session or "
		         "ping",
		         q);
		goto out;
	}
	r->cmd = (enum ctl_cmd)i;
	r->cmd_known = true;
	if (ctl_check_keys(obj, ctl_cmd_keys[r->cmd], ctl_cmd_names[r->cmd],
	                   err, errlen) < 0)
		goto out;
	rc = ctl_fill(obj, r, err, errlen);
out:
	json_object_put(obj);
out_tok:
	json_tokener_free(tok);
	return rc;
}

/* --- encoding --- */

/* S (LEN bytes) as a JSON string. Escapes are written only where JSON
 * needs them, so that the datagram stays readable in a log or strace; DEL
 * is escaped too, as the one control character above the space. */
static void ctl_put_str(struct strbuf *out, const char *s, size_t len)
{
	size_t from = 0;

	strbuf_add(out, "\"", 1);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];

		switch (c) {
		case '"':
		case '\\':
			snprintf(esc, sizeof(esc), "\\%c", c);
			break;
		case '\n':
			snprintf(esc, sizeof(esc), "\\n");
			break;
		case '\t':
			snprintf(esc, sizeof(esc), "\\t");
			break;
		case '\r':
			snprintf(esc, sizeof(esc), "\\r");
			break;
		default:
			if (!ctl_is_cntrl(c))
				continue;
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			break;
		}
		strbuf_add(out, s + from, i - from);
		strbuf_puts(out, esc);
		from = i + 1;
	}
	strbuf_add(out, s + from, len - from);
	strbuf_add(out, "\"", 1);
}

/* The string member M of SIZE bytes, refused when it has no NUL. */
static int ctl_put_member(struct strbuf *out, const char *what, const char *m,
                          size_t size, char *err, size_t errlen)
{
	size_t len = strnlen(m, size);

	if (len == size)
		return ctl_too_long(what, size, err, errlen);
	ctl_put_str(out, m, len);
	return 0;
}

static int ctl_put_key(struct strbuf *out, const struct ctl_request *r,
                       const struct ctl_key *k, char *err, size_t errlen)
{
	const char *m = (const char *)r + k->off;
	size_t n;

	strbuf_add(out, ",", 1);
	ctl_put_str(out, k->name, strlen(k->name));
	strbuf_add(out, ":", 1);
	switch (k->type) {
	case json_type_string:
		return ctl_put_member(out, k->name, m, k->size, err, errlen);
	case json_type_array:
		n = *(const size_t *)((const char *)r + k->count);
		if (n > k->max)
			return ctl_too_many(k->name, n, k->max, err, errlen);
		strbuf_add(out, "[", 1);
		for (size_t i = 0; i < n; i++) {
			char name[48];

			snprintf(name, sizeof(name), "%s[%zu]", k->name, i);
			if (i)
				strbuf_add(out, ",", 1);
			if (ctl_put_member(out, name, m + i * k->size, k->size,
			                   err, errlen) < 0)
				return -EINVAL;
		}
		strbuf_add(out, "]", 1);
		return 0;
	default:
		strbuf_puts(out, *(const bool *)m ? "true" : "false");
		return 0;
	}
}

void ctl_request_set(char *dst, size_t size, const char *s)
{
	size_t n = strnlen(s, size);

	memcpy(dst, s, n);
	if (n < size)
		dst[n] = '\0';
}

int ctl_request_encode(const struct ctl_request *r, struct strbuf *out,
                       char *err, size_t errlen)
{
	size_t start = out->len;

	if ((unsigned)r->cmd >= CTL_CMD_COUNT) {
		snprintf(err, errlen, "%% unknown cmd %d", (int)r->cmd);
		return -EINVAL;
	}
	strbuf_puts(out, "{\"cmd\":");
	ctl_put_str(out, ctl_cmd_names[r->cmd], strlen(ctl_cmd_names[r->cmd]));
	for (const struct ctl_key *k = ctl_cmd_keys[r->cmd]; k->name; k++) {
		/* An optional string left empty is the default: not sent. */
		if (k->type == json_type_string && k->optional &&
		    !*((const char *)r + k->off))
			continue;
		if (ctl_put_key(out, r, k, err, errlen) < 0)
			goto fail;
	}
	strbuf_add(out, "}", 1);
	if (!out->oom)
		return 0;
	snprintf(err, errlen, "%% out of memory");
fail:
	/* Nothing of a request that cannot be sent is left in OUT. */
	if (!out->oom && out->s) {
		out->len = start;
		out->s[start] = '\0';
	}
	return out->oom ? -ENOMEM : -EINVAL;
}

/* --- credentials --- */

bool ctl_peer_may_configure(const struct ctl_peer *p, bool have_group,
                            gid_t group)
{
	if (p->uid == 0)
		return true;
	if (!have_group)
		return false;
	if (p->gid == group)
		return true;
	for (size_t i = 0; i < p->ngroups && i < CTL_PEER_GROUPS_MAX; i++)
		if (p->groups[i] == group)
			return true;
	return false;
}

int ctl_status_groups(const char *status, gid_t *groups, size_t max)
{
	const char *line = status;
	size_t n = 0;

	while (line && strncmp(line, "Groups:", 7)) {
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!line)
		return -EINVAL;
	line += 7;
	for (;;) {
		unsigned long v;
		char *end;

		while (*line == ' ' || *line == '\t')
			line++;
		if (*line == '\n' || *line == '\0')
			break;
		if (!isdigit((unsigned char)*line))
			return -EINVAL;
		errno = 0;
		v = strtoul(line, &end, 10);
		if (errno || v > (gid_t)-1 || end == line)
			return -EINVAL;
		if (n < max)
			groups[n++] = (gid_t)v;
		line = end;
	}
	return (int)n;
}
