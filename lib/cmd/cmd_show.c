/* cmd_show: see cmd_show.h. */
#include "cmd/cmd_show.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd_int.h"

/* The keywords of the show rows that narrow the answer, and the flag of
 * the query each sets. The one table of them: a row that takes one of
 * these words means this by it. */
static const struct {
	const char *word;
	size_t off; /* of a bool in struct show_query */
} cmd_show_words[] = {
    {"detail", offsetof(struct show_query, detail)},
    {"system", offsetof(struct show_query, system)},
    {"all", offsetof(struct show_query, all)},
    /* NX-OS calls the QoS part of the running-config ipqos */
    {"qos", offsetof(struct show_query, qos_only)},
    {"ipqos", offsetof(struct show_query, qos_only)},
};

static int cmd_show_copy(char *dst, size_t size, const char *s, size_t pos,
                         const char *what, struct cmd_error *err)
{
	if (strlen(s) >= size) {
		cmd_fail(err, pos, "%% %s too long: %.64s", what, s);
		return -1;
	}
	snprintf(dst, size, "%s", s);
	return 0;
}

static void cmd_show_flag(struct show_query *q, const char *w)
{
	for (size_t k = 0; k < sizeof(cmd_show_words) / sizeof(*cmd_show_words);
	     k++)
		if (!strcmp(w, cmd_show_words[k].word))
			*(bool *)((char *)q + cmd_show_words[k].off) = true;
}

int cmd_show_fill(const struct cmd_parsed *p, struct show_query *q,
                  struct cmd_error *err)
{
	int kind = p->name ? ctl_show_parse(p->name) : -1;

	memset(q, 0, sizeof(*q));
	if (p->kind != CMD_KIND_SHOW || kind < 0) {
		cmd_fail(err, 0, "%% Not a show command: %.64s",
		         p->name ? p->name : "");
		return -1;
	}
	q->kind = (enum ctl_show)kind;
	for (size_t i = 0; i < p->argc; i++) {
		const char *w = p->argv[i];

		if (p->argmask & (1u << i)) {
			if (p->tok[i] == CMD_TOK_IF ||
			    p->tok[i] == CMD_TOK_ALIAS) {
				if (policy_ifname_nxos(w, q->iface,
				                       sizeof(q->iface)) < 0) {
					cmd_fail(err, p->pos[i],
					         "%% interface name too long: "
					         "%.64s",
					         w);
					return -1;
				}
			} else if (cmd_show_copy(q->name[0] ? q->name2
			                                    : q->name,
			                         sizeof(q->name), w, p->pos[i],
			                         "name", err) < 0) {
				return -1;
			}
		} else if (!strcmp(w, "type") && i + 1 < p->argc) {
			i++;
			if (cmd_show_copy(q->type, sizeof(q->type), p->argv[i],
			                  p->pos[i], "type", err) < 0)
				return -1;
		} else {
			cmd_show_flag(q, w);
		}
	}
	return 0;
}

int cmd_show_query(const char *what, const char *const *args, size_t nargs,
                   struct show_query *q, struct cmd_error *err)
{
	bool whole = nargs && !strcmp(args[0], "show");
	char line[CMD_LINE_MAX];
	struct cmd_parsed p;
	struct cmd_ctx ctx;
	size_t len = 0;

	memset(q, 0, sizeof(*q));
	if (!whole)
		len = (size_t)snprintf(line, sizeof(line), "%s", what);
	else
		line[0] = '\0';
	for (size_t i = 0; i < nargs && len < sizeof(line); i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s",
		                        len ? " " : "", args[i]);
	if (len >= sizeof(line)) {
		cmd_fail(err, 0, "%% Line too long");
		return -1;
	}
	cmd_ctx_init(&ctx);
	if (cmd_parse(&ctx, line, &p, err) < 0)
		return -1;
	return cmd_show_fill(&p, q, err);
}
