/* cmd_notqos: the NX-OS configuration lines that are not QoS. See cmd.h.
 *
 * A switch's full running-config is mostly not QoS: features, VLANs,
 * spanning tree, vPC, routing, management. An operator pastes it whole,
 * and what roced has no word for would otherwise be one error per line,
 * among which the real problems get lost. rocesh asks here about a line
 * that does not parse: a known non-QoS command is counted and reported
 * once, in a summary. Only lines that do not parse come here, so a word
 * this table lists never hides a command of the table (cmd_nxos.c): `mtu`
 * or `description` under an interface, `hardware qos pfc mc-drop` parse
 * first.
 *
 * Each row is the first word of the command, and optionally the second
 * word it must have or must not have ("system" other than "system qos",
 * "hardware" other than "hardware qos"). A leading `no` is skipped: `no
 * ip domain-lookup` is as little QoS as `ip domain-lookup`.
 */
#include "cmd/cmd_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

struct cmd_notqos_row {
	const char *word;
	const char *second; /* NULL: any; "!x": anything but x */
	const char *what;   /* the family, for the summary */
	const char *third;  /* NULL: any; else the third word it must be */
};

static const struct cmd_notqos_row cmd_notqos_rows[] = {
    /* global: the switch as a whole */
    {"version", NULL, "system", NULL},
    {"hostname", NULL, "system", NULL},
    {"switchname", NULL, "system", NULL},
    {"feature", NULL, "feature", NULL},
    {"install", NULL, "system", NULL},
    {"license", NULL, "system", NULL},
    {"boot", NULL, "system", NULL},
    {"clock", NULL, "system", NULL},
    {"banner", NULL, "system", NULL},
    {"power", NULL, "system", NULL},
    {"cfs", NULL, "system", NULL},
    {"system", "!qos", "system", NULL},
    {"hardware", "!qos", "hardware", NULL},
    {"vdc", NULL, "system", NULL},
    {"username", NULL, "aaa", NULL},
    {"role", NULL, "aaa", NULL},
    {"aaa", NULL, "aaa", NULL},
    {"tacacs-server", NULL, "aaa", NULL},
    {"radius-server", NULL, "aaa", NULL},
    {"ssh", NULL, "management", NULL},
    {"telnet", NULL, "management", NULL},
    {"nxapi", NULL, "management", NULL},
    {"line", NULL, "management", NULL},
    {"ntp", NULL, "management", NULL},
    {"snmp-server", NULL, "management", NULL},
    {"logging", NULL, "logging", NULL},
    {"callhome", NULL, "management", NULL},
    {"rmon", NULL, "management", NULL},
    {"telemetry", NULL, "management", NULL},
    {"cdp", NULL, "cdp", NULL},
    {"copp", NULL, "copp", NULL},
    {"control-plane", NULL, "copp", NULL},
    /* class-map and policy-map types roced does not realise */
    {"class-map", "type", "copp", "control-plane"},
    {"policy-map", "type", "copp", "control-plane"},
    {"service-policy", "input", "copp", NULL},
    {"interface", "breakout", "interface", NULL},
    /* layer 2 */
    {"vlan", NULL, "vlan", NULL},
    {"spanning-tree", NULL, "spanning-tree", NULL},
    {"vpc", NULL, "vpc", NULL},
    {"peer-keepalive", NULL, "vpc", NULL},
    {"peer-switch", NULL, "vpc", NULL},
    {"peer-gateway", NULL, "vpc", NULL},
    {"auto-recovery", NULL, "vpc", NULL},
    {"switchport", NULL, "switchport", NULL},
    {"channel-group", NULL, "port-channel", NULL},
    {"lacp", NULL, "port-channel", NULL},
    {"port-channel", NULL, "port-channel", NULL},
    {"mac", NULL, "layer 2", NULL},
    {"udld", NULL, "layer 2", NULL},
    {"errdisable", NULL, "layer 2", NULL},
    {"storm-control", NULL, "layer 2", NULL},
    {"speed", NULL, "interface", NULL},
    {"duplex", NULL, "interface", NULL},
    {"fec", NULL, "interface", NULL},
    {"negotiate", NULL, "interface", NULL},
    {"link", NULL, "interface", NULL},
    {"delay", NULL, "interface", NULL},
    {"load-interval", NULL, "interface", NULL},
    {"beacon", NULL, "interface", NULL},
    {"medium", NULL, "interface", NULL},
    {"evpn", NULL, "evpn", NULL},
    {"nv", NULL, "vxlan", NULL},
    {"member", NULL, "vxlan", NULL},
    {"source-interface", NULL, "vxlan", NULL},
    {"host-reachability", NULL, "vxlan", NULL},
    {"fabric", NULL, "vxlan", NULL},
    /* layer 3 */
    {"ip", NULL, "ip", NULL},
    {"ipv6", NULL, "ip", NULL},
    {"vrf", NULL, "vrf", NULL},
    {"router", NULL, "routing", NULL},
    {"route-map", NULL, "routing", NULL},
    {"address-family", NULL, "routing", NULL},
    {"neighbor", NULL, "routing", NULL},
    {"router-id", NULL, "routing", NULL},
    {"hsrp", NULL, "routing", NULL},
    {"vrrp", NULL, "routing", NULL},
    {"bfd", NULL, "routing", NULL},
    {"key", NULL, "routing", NULL},
    {"track", NULL, "routing", NULL},
    {"encapsulation", NULL, "routing", NULL},
};

/* The first three words of LINE (after `no`) into W[0..2]. */
static void cmd_notqos_words(const char *line, char (*w)[CMD_WORD_MAX])
{
	size_t k = 0, len = CMD_WORD_MAX;

	w[0][0] = w[1][0] = w[2][0] = '\0';
	while (k < 3 && *line) {
		size_t n = 0;

		while (*line == ' ' || *line == '\t')
			line++;
		while (*line && *line != ' ' && *line != '\t') {
			if (n + 1 < len)
				w[k][n++] = (char)tolower((unsigned char)*line);
			line++;
		}
		w[k][n] = '\0';
		if (!n)
			break;
		if (k == 0 && !strcmp(w[0], "no"))
			continue; /* `no X`: judge X */
		k++;
	}
}

const char *cmd_not_qos(const char *line)
{
	char w[3][CMD_WORD_MAX];

	cmd_notqos_words(line, w);
	if (!w[0][0])
		return NULL;
	for (size_t i = 0;
	     i < sizeof(cmd_notqos_rows) / sizeof(*cmd_notqos_rows); i++) {
		const struct cmd_notqos_row *r = &cmd_notqos_rows[i];

		if (strcmp(w[0], r->word) ||
		    (r->third && strcmp(w[2], r->third)))
			continue;
		if (!r->second)
			return r->what;
		if (r->second[0] == '!' && strcmp(w[1], r->second + 1))
			return r->what;
		if (r->second[0] != '!' && !strcmp(w[1], r->second))
			return r->what;
	}
	return NULL;
}

/* ---- pasted transcripts ---- */

size_t cmd_prompt_len(const char *line)
{
	size_t i = strspn(line, " \t"), host = i;

	/* HOST, HOST(MODE): letters, digits, '-', '_', '.' as a hostname */
	while (isalnum((unsigned char)line[i]) ||
	       (line[i] && strchr("-_.", line[i])))
		i++;
	if (i == host)
		return 0;
	if (line[i] == '(') {
		size_t mode = ++i;

		while (isalnum((unsigned char)line[i]) || line[i] == '-')
			i++;
		if (i == mode || line[i] != ')')
			return 0;
		i++;
	}
	/* `#` then a blank or the end: no command word holds a `#`. */
	if (line[i] != '#' ||
	    (line[i + 1] && line[i + 1] != ' ' && line[i + 1] != '\t'))
		return 0;
	i++;
	return i + strspn(line + i, " \t");
}

/* Where the delimiter of `banner TYPE D...` starts in LINE, its length
 * in *N: `^C` (as running-config prints Ctrl-C), else one byte (a
 * literal Ctrl-C among them). NULL when LINE is no banner line. */
static const char *cmd_banner_delim(const char *line, size_t *n)
{
	const char *s = line + strspn(line, " \t");

	if (strncmp(s, "banner", 6) || (s[6] != ' ' && s[6] != '\t'))
		return NULL;
	s += 6;
	s += strspn(s, " \t");
	s += strcspn(s, " \t"); /* motd, exec, login, ... */
	s += strspn(s, " \t");
	if (!*s)
		return NULL;
	*n = s[0] == '^' && s[1] && !isspace((unsigned char)s[1]) ? 2 : 1;
	return s;
}

int cmd_banner_open(const char *line, char *delim, size_t len)
{
	size_t n = 0;
	const char *d = cmd_banner_delim(line, &n);
	const char *rest;

	if (!d || n + 1 > len)
		return 0;
	/* `banner motd #text#`: it closes on its own line. */
	for (rest = d + n; *rest; rest++)
		if (!strncmp(rest, d, n))
			return 0;
	memcpy(delim, d, n);
	delim[n] = '\0';
	return 1;
}

bool cmd_banner_closes(const char *line, const char *delim)
{
	return *delim && strstr(line, delim);
}
