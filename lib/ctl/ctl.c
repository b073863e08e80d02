/* ctl: the control protocol's pure parts (see ctl.h): where the socket
 * lives, the names of the show commands, strict request parsing, and who
 * may configure. The socket server itself is daemon/ctl/ctl_srv.c.
 */
#include "ctl/ctl.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

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

int ctl_state_path(char *buf, size_t len, const char *suffix)
{
	struct stat self, init;
	unsigned long ino;
	bool host;
	int n;

	if (stat("/proc/self/ns/net", &self) < 0)
		return -errno;
	ino = (unsigned long)self.st_ino;
	if (stat("/proc/1/ns/net", &init) == 0) {
		host = self.st_ino == init.st_ino && self.st_dev == init.st_dev;
	} else {
		struct stat sock;

		/* Not allowed to look at init's namespace (not root, or a
		 * container that hides it): a named namespace is not the
		 * host's, and a roced of this namespace has made its own
		 * socket if this is not the host's namespace. */
		host = !ctl_named_netns(ino);
		n = snprintf(buf, len, "%s/roced.%lu%s", CTL_DIR, ino, suffix);
		if (host && n >= 0 && (size_t)n < len && stat(buf, &sock) == 0)
			host = false;
	}
	if (host)
		n = snprintf(buf, len, "%s/roced%s", CTL_DIR, suffix);
	else
		n = snprintf(buf, len, "%s/roced.%lu%s", CTL_DIR, ino, suffix);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int ctl_socket_path(char *buf, size_t len)
{
	return ctl_state_path(buf, len, ".sock");
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
    [CTL_CMD_CONFIG] = "config", [CTL_CMD_SHOW] = "show",
    [CTL_CMD_COPY] = "copy",     [CTL_CMD_RELOAD] = "reload",
    [CTL_CMD_DEBUG] = "debug",   [CTL_CMD_PING] = "ping",
};

/* The keys each command takes besides "cmd"; optional ones marked. */
struct ctl_key {
	const char *name;
	json_type type;
	bool optional;
};

static const struct ctl_key ctl_keys_config[] = {
    {"context", json_type_array, true},
    {"line", json_type_string, false},
    {NULL, json_type_null, false},
};
static const struct ctl_key ctl_keys_show[] = {
    {"what", json_type_string, false},
    {"args", json_type_array, true},
    {"json", json_type_boolean, true},
    {NULL, json_type_null, false},
};
static const struct ctl_key ctl_keys_copy[] = {
    {"from", json_type_string, false},
    {"to", json_type_string, false},
    {NULL, json_type_null, false},
};
static const struct ctl_key ctl_keys_debug[] = {
    {"subsys", json_type_string, false},
    {"on", json_type_boolean, true},
    {NULL, json_type_null, false},
};
static const struct ctl_key ctl_keys_none[] = {
    {NULL, json_type_null, false},
};

static const struct ctl_key *const ctl_cmd_keys[] = {
    [CTL_CMD_CONFIG] = ctl_keys_config, [CTL_CMD_SHOW] = ctl_keys_show,
    [CTL_CMD_COPY] = ctl_keys_copy,     [CTL_CMD_RELOAD] = ctl_keys_none,
    [CTL_CMD_DEBUG] = ctl_keys_debug,   [CTL_CMD_PING] = ctl_keys_none,
};

const char *ctl_cmd_name(enum ctl_cmd c)
{
	return (unsigned)c <= CTL_CMD_PING ? ctl_cmd_names[c] : "?";
}

bool ctl_cmd_configures(enum ctl_cmd c)
{
	return c == CTL_CMD_CONFIG || c == CTL_CMD_COPY ||
	       c == CTL_CMD_RELOAD || c == CTL_CMD_DEBUG;
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
	if (len < 0 || (size_t)len >= size) {
		snprintf(err, errlen, "%% '%s' is too long (at most %zu bytes)",
		         what, size - 1);
		return -EINVAL;
	}
	for (int i = 0; i < len; i++)
		if (iscntrl((unsigned char)s[i])) {
			snprintf(err, errlen,
			         "%% '%s' holds a control character", what);
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

	if (count > max) {
		snprintf(err, errlen, "%% '%s' has %zu items, at most %zu",
		         what, count, max);
		return -EINVAL;
	}
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
			snprintf(err, errlen,
			         "%% unknown key '%.64s' in a %s request", key,
			         cmd);
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

static int ctl_fill(struct json_object *obj, struct ctl_request *r, char *err,
                    size_t errlen)
{
	struct json_object *v;
	int rc = 0;

	switch (r->cmd) {
	case CTL_CMD_CONFIG:
		if (json_object_object_get_ex(obj, "context", &v))
			rc = ctl_copy_strs(v, "context", &r->context[0][0],
			                   CTL_CONTEXT_MAX, CTL_CONTEXT_LEN,
			                   &r->ncontext, err, errlen);
		if (!rc && json_object_object_get_ex(obj, "line", &v))
			rc = ctl_copy_str(v, "line", r->line, sizeof(r->line),
			                  err, errlen);
		break;
	case CTL_CMD_SHOW:
		if (json_object_object_get_ex(obj, "what", &v))
			rc = ctl_copy_str(v, "what", r->what, sizeof(r->what),
			                  err, errlen);
		if (!rc && json_object_object_get_ex(obj, "args", &v))
			rc = ctl_copy_strs(v, "args", &r->args[0][0],
			                   CTL_ARGS_MAX, CTL_ARG_LEN, &r->nargs,
			                   err, errlen);
		if (json_object_object_get_ex(obj, "json", &v))
			r->json = json_object_get_boolean(v);
		if (!rc && ctl_show_parse(r->what) < 0) {
			snprintf(err, errlen, "%% unknown show command '%.64s'",
			         r->what);
			rc = -EINVAL;
		}
		break;
	case CTL_CMD_COPY:
		if (json_object_object_get_ex(obj, "from", &v))
			rc = ctl_copy_str(v, "from", r->from, sizeof(r->from),
			                  err, errlen);
		if (!rc && json_object_object_get_ex(obj, "to", &v))
			rc = ctl_copy_str(v, "to", r->to, sizeof(r->to), err,
			                  errlen);
		/* NX-OS copies other ways too; roced has these two only. */
		if (!rc && (strcmp(r->from, "running-config") ||
		            strcmp(r->to, "startup-config"))) {
			snprintf(err, errlen,
			         "%% roced copies running-config to "
			         "startup-config only");
			rc = -EINVAL;
		}
		break;
	case CTL_CMD_DEBUG:
		r->on = true;
		if (json_object_object_get_ex(obj, "subsys", &v))
			rc = ctl_copy_str(v, "subsys", r->subsys,
			                  sizeof(r->subsys), err, errlen);
		if (json_object_object_get_ex(obj, "on", &v))
			r->on = json_object_get_boolean(v);
		break;
	case CTL_CMD_RELOAD:
	case CTL_CMD_PING:
		break;
	}
	return rc;
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
	for (i = 0; i <= CTL_CMD_PING; i++)
		if (!strcmp(name, ctl_cmd_names[i]))
			break;
	if (i > CTL_CMD_PING) {
		snprintf(err, errlen,
		         "%% unknown cmd '%.64s', expected config, show, copy, "
		         "reload, debug or ping",
		         name);
		goto out;
	}
	r->cmd = (enum ctl_cmd)i;
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
