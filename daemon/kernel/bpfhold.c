/* bpfhold: loading pfc_hold.bpf.c with libbpf. See bpfhold.h. */
#include "kernel/bpfhold.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <net/if.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "os/log.h"

double bpfhold_paused_ms(const struct pfc_hold_prio *h, uint64_t now_ns)
{
	uint64_t ns = h->asked_ns, until = h->ask_until;

	/* The span under way counts up to now, or to its end when that is
	 * past and no frame has come since to close it. */
	if (until && h->ask_since <= now_ns)
		ns += (until < now_ns ? until : now_ns) - h->ask_since;
	return (double)ns / 1e6;
}

void bpfhold_init(struct bpfhold *h)
{
	memset(h, 0, sizeof(*h));
	h->cfg_fd = h->state_fd = h->prio_fd = h->dscp_fd = -1;
}

#ifndef HAVE_BPF_PROGS

bool bpfhold_built(const char **why)
{
	if (why)
		*why = "roced was built without libbpf or clang's BPF target";
	return false;
}

int bpfhold_attach(struct bpfhold *h, int ifindex,
                   const struct bpfhold_conf *conf, char *err, size_t errlen)
{
	snprintf(err, errlen, "roced was built without the BPF programs");
	return -EOPNOTSUPP;
}

int bpfhold_find(struct bpfhold *h, int ifindex)
{
	return -EOPNOTSUPP;
}

int bpfhold_configure(const struct bpfhold *h, const struct bpfhold_conf *conf)
{
	return -EOPNOTSUPP;
}

int bpfhold_read(const struct bpfhold *h, struct bpfhold_stats *out)
{
	return -EOPNOTSUPP;
}

void bpfhold_close(struct bpfhold *h)
{
	bpfhold_init(h);
}

void bpfhold_detach(struct bpfhold *h)
{
	bpfhold_init(h);
}

int bpfhold_release_ifindex(int ifindex)
{
	return -EOPNOTSUPP;
}

int bpfhold_release_all(size_t *ports)
{
	*ports = 0;
	return 0;
}

#else /* HAVE_BPF_PROGS */

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/pkt_sched.h>

#include "kernel/bpfhold_loop.h"
#include "kernel/pfc_hold_obj.h"

bool bpfhold_built(const char **why)
{
	if (why)
		*why = "";
	return true;
}

/* The map libbpf last said it could not create ("" none), and why: an
 * object's load fails that way before any program reaches the verifier
 * (a seccomp filter refusing bpf(), no memory for maps). */
static char bpfhold_map_fail[64], bpfhold_map_why[128];

/* libbpf's own messages go to the debug log, not to stderr: what fails
 * is told once, by the caller, in its words. */
static int bpfhold_print(enum libbpf_print_level level, const char *fmt,
                         va_list ap)
{
	char line[512];
	int n = 0;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = '\0';
	log_debug(LOG_SUB_APPLY, "libbpf: %s", line);
	/* "libbpf: map 'NAME': failed to create: WHY(-ERRNO)" */
	if (sscanf(line, "libbpf: map '%63[^']': failed to create: %n",
	           bpfhold_map_fail, &n) == 1 &&
	    n) {
		snprintf(bpfhold_map_why, sizeof(bpfhold_map_why), "%s",
		         line + n);
		bpfhold_map_why[strcspn(bpfhold_map_why, "(")] = '\0';
	}
	return 0;
}

/* ROCED_BPFHOLD_FAIL (tests, the man page's ENVIRONMENT): "map" makes
 * the map pfc_state one the kernel refuses to create (no entries),
 * "verifier" loads pfc_tx as an XDP program, whose context has none of
 * the socket buffer's fields the program reads: the two failures that
 * must leave the port on the user-space path, made on demand. */
static void bpfhold_test_fail(struct bpf_object *obj)
{
	const char *f = getenv("ROCED_BPFHOLD_FAIL");

	if (!f)
		return;
	if (!strcmp(f, "map"))
		bpf_map__set_max_entries(
		    bpf_object__find_map_by_name(obj, "pfc_state"), 0);
	else if (!strcmp(f, "verifier"))
		bpf_program__set_type(
		    bpf_object__find_program_by_name(obj, "pfc_tx"),
		    BPF_PROG_TYPE_XDP);
}

static void bpfhold_hook(struct bpf_tc_hook *hook, int ifindex,
                         enum bpf_tc_attach_point at)
{
	libbpf_set_print(bpfhold_print);
	memset(hook, 0, sizeof(*hook));
	hook->sz = sizeof(*hook);
	hook->ifindex = ifindex;
	hook->attach_point = at;
}

static void bpfhold_opts(struct bpf_tc_opts *o, int prog_fd)
{
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	o->handle = BPFHOLD_TC_HANDLE;
	o->priority = BPFHOLD_TC_PRIO;
	o->prog_fd = prog_fd;
}

/* The verifier's verdict in its log: the line before its closing
 * statistics ("processed N insns ..."), or its last line. */
static const char *bpfhold_verdict(char *log)
{
	char *end = log + strlen(log), *p;

	for (;;) {
		while (end > log && (end[-1] == '\n' || end[-1] == ' '))
			*--end = '\0';
		p = strrchr(log, '\n');
		p = p ? p + 1 : log;
		if (p == log || (strncmp(p, "processed ", 10) &&
		                 strncmp(p, "verification time", 17)))
			return p;
		end = p;
	}
}

#define BPFHOLD_NPROG    3

static int bpfhold_load(struct bpfhold *h, char *err, size_t errlen)
{
	static char logs[BPFHOLD_NPROG][65536];
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "pfc_hold");
	struct bpf_object *obj;
	struct bpf_program *prog;
	unsigned i = 0;
	int rc;

	libbpf_set_print(bpfhold_print);
	obj = bpf_object__open_mem(pfc_hold_obj, sizeof(pfc_hold_obj), &oo);
	if (!obj) {
		rc = -errno;
		snprintf(err, errlen, "pfc_hold: cannot open the object: %s",
		         strerror(-rc));
		return rc;
	}
	bpf_object__for_each_program(prog, obj)
	{
		if (i >= BPFHOLD_NPROG)
			break;
		logs[i][0] = '\0';
		bpf_program__set_log_buf(prog, logs[i], sizeof(logs[i]));
		bpf_program__set_log_level(prog, 1);
		i++;
	}
	bpfhold_test_fail(obj);
	bpfhold_map_fail[0] = '\0';
	rc = bpf_object__load(obj);
	if (rc && bpfhold_map_fail[0]) {
		snprintf(err, errlen, "BPF map %s cannot be created: %s",
		         bpfhold_map_fail,
		         bpfhold_map_why[0] ? bpfhold_map_why
		                            : strerror(rc < 0 ? -rc : rc));
		bpf_object__close(obj);
		return rc < 0 ? rc : -rc;
	}
	if (rc) {
		const char *name = "pfc_hold";
		const char *why = strerror(rc < 0 ? -rc : rc);

		i = 0;
		bpf_object__for_each_program(prog, obj)
		{
			/* libbpf unloads every program when one fails: the
			 * one refused is the one whose log is more than the
			 * verifier's closing statistics. */
			const char *v =
			    i < BPFHOLD_NPROG ? bpfhold_verdict(logs[i]) : "";

			if (*v && strncmp(v, "processed ", 10)) {
				name = bpf_program__name(prog);
				why = v;
				break;
			}
			i++;
		}
		snprintf(err, errlen, "BPF program %s refused: %s", name, why);
		bpf_object__close(obj);
		return rc < 0 ? rc : -rc;
	}
	h->obj = obj;
	h->cfg_fd = bpf_map__fd(bpf_object__find_map_by_name(obj, "pfc_cfg"));
	h->state_fd =
	    bpf_map__fd(bpf_object__find_map_by_name(obj, "pfc_state"));
	h->prio_fd = bpf_map__fd(bpf_object__find_map_by_name(obj, "pfc_prio"));
	h->dscp_fd = bpf_map__fd(bpf_object__find_map_by_name(obj, "pfc_dscp"));
	if (h->cfg_fd < 0 || h->state_fd < 0 || h->prio_fd < 0 ||
	    h->dscp_fd < 0) {
		snprintf(err, errlen, "pfc_hold: the object has no maps");
		bpf_object__close(obj);
		h->obj = NULL;
		return -ENOENT;
	}
	return 0;
}

static int bpfhold_write(const struct bpfhold *h, const struct bpfhold_conf *c);

int bpfhold_attach(struct bpfhold *h, int ifindex,
                   const struct bpfhold_conf *conf, char *err, size_t errlen)
{
	static const char *const names[BPFHOLD_NPROG] = {"pfc_rx", "pfc_tx",
	                                                 "pfc_loop"};
	static const enum bpf_tc_attach_point at[BPFHOLD_NPROG] = {
	    BPF_TC_INGRESS, BPF_TC_EGRESS, BPF_TC_INGRESS};
	struct bpfhold_conf c = *conf;
	struct bpf_tc_hook hook;
	struct bpf_tc_opts o;
	int rc, a, b, where[BPFHOLD_NPROG];

	bpfhold_init(h);
	h->ifindex = ifindex;
	rc = bpfhold_load(h, err, errlen);
	if (rc)
		return rc;
	rc = bpfhold_loop_create(ifindex, &a, &b);
	if (rc) {
		/* what a kernel without sch_fq answers for the qdisc */
		snprintf(
		    err, errlen,
		    "cannot create the hold's loop (a veth pair with fq): %s",
		    rc == -ENOENT ? "the kernel has no sch_fq" : strerror(-rc));
		goto fail;
	}
	h->has_loop = true;
	c.cfg.port_ifindex = (uint32_t)ifindex;
	c.cfg.loop_a = (uint32_t)a;
	c.cfg.loop_b = (uint32_t)b;
	where[0] = where[1] = ifindex;
	where[2] = b;
	rc = bpfhold_write(h, &c);
	if (rc) {
		snprintf(err, errlen, "pfc_hold: cannot write its maps: %s",
		         strerror(-rc));
		goto fail;
	}
	for (unsigned i = 0; i < BPFHOLD_NPROG; i++) {
		struct bpf_program *prog = bpf_object__find_program_by_name(
		    (struct bpf_object *)h->obj, names[i]);

		bpfhold_hook(&hook, where[i], BPF_TC_INGRESS | BPF_TC_EGRESS);
		rc = i == 1 ? -EEXIST : bpf_tc_hook_create(&hook);
		if (rc && rc != -EEXIST) {
			snprintf(err, errlen, "cannot add clsact: %s",
			         strerror(-rc));
			goto fail;
		}
		if (i == 0)
			h->created_clsact = !rc;
		bpfhold_hook(&hook, where[i], at[i]);
		bpfhold_opts(&o, prog ? bpf_program__fd(prog) : -1);
		o.flags = BPF_TC_F_REPLACE;
		rc = bpf_tc_attach(&hook, &o);
		if (rc) {
			snprintf(err, errlen, "cannot attach %s: %s", names[i],
			         strerror(-rc));
			goto fail;
		}
	}
	return 0;
fail:
	bpfhold_detach(h);
	return rc;
}

/* The fd of the map called NAME among PROG_FD's maps, or -1. */
static int bpfhold_prog_map(int prog_fd, const char *name)
{
	struct bpf_prog_info pi;
	uint32_t ids[8], len = sizeof(pi);

	memset(&pi, 0, sizeof(pi));
	pi.nr_map_ids = 8;
	pi.map_ids = (uint64_t)(uintptr_t)ids;
	if (bpf_obj_get_info_by_fd(prog_fd, &pi, &len))
		return -1;
	for (uint32_t i = 0; i < pi.nr_map_ids && i < 8; i++) {
		struct bpf_map_info mi;
		uint32_t mlen = sizeof(mi);
		int fd = bpf_map_get_fd_by_id(ids[i]);

		if (fd < 0)
			continue;
		memset(&mi, 0, sizeof(mi));
		if (!bpf_obj_get_info_by_fd(fd, &mi, &mlen) &&
		    !strcmp(mi.name, name))
			return fd;
		close(fd);
	}
	return -1;
}

/* Open in *FD the map called NAME of PROG_FD, unless open already. */
static void bpfhold_take(int prog_fd, const char *name, int *fd)
{
	if (*fd < 0)
		*fd = bpfhold_prog_map(prog_fd, name);
}

int bpfhold_find(struct bpfhold *h, int ifindex)
{
	static const enum bpf_tc_attach_point at[2] = {BPF_TC_INGRESS,
	                                               BPF_TC_EGRESS};
	struct bpf_tc_hook hook;
	struct bpf_tc_opts o;

	bpfhold_init(h);
	h->ifindex = ifindex;
	/* pfc_rx and pfc_tx each use some of the maps: the union is all */
	for (unsigned i = 0; i < 2; i++) {
		int prog;

		bpfhold_hook(&hook, ifindex, at[i]);
		bpfhold_opts(&o, 0);
		if (bpf_tc_query(&hook, &o))
			continue;
		prog = bpf_prog_get_fd_by_id(o.prog_id);
		if (prog < 0)
			continue;
		bpfhold_take(prog, "pfc_cfg", &h->cfg_fd);
		bpfhold_take(prog, "pfc_state", &h->state_fd);
		bpfhold_take(prog, "pfc_prio", &h->prio_fd);
		bpfhold_take(prog, "pfc_dscp", &h->dscp_fd);
		close(prog);
	}
	if (h->cfg_fd < 0 || h->state_fd < 0 || h->prio_fd < 0 ||
	    h->dscp_fd < 0) {
		bpfhold_close(h);
		return -ENOENT;
	}
	h->has_loop = true;
	return 0;
}

static int bpfhold_write(const struct bpfhold *h, const struct bpfhold_conf *c)
{
	uint32_t zero = 0;

	if (h->cfg_fd < 0 || h->dscp_fd < 0)
		return -EBADF;
	for (uint32_t d = 0; d < PFC_HOLD_NDSCP; d++)
		if (bpf_map_update_elem(h->dscp_fd, &d, &c->dscp_prio[d],
		                        BPF_ANY))
			return -errno;
	return bpf_map_update_elem(h->cfg_fd, &zero, &c->cfg, BPF_ANY) ? -errno
	                                                               : 0;
}

int bpfhold_configure(const struct bpfhold *h, const struct bpfhold_conf *conf)
{
	struct pfc_hold_cfg now;
	struct bpfhold_conf c = *conf;
	uint32_t zero = 0;

	/* The port and its loop stay what bpfhold_attach made them. */
	if (h->cfg_fd < 0 || bpf_map_lookup_elem(h->cfg_fd, &zero, &now))
		return -EBADF;
	c.cfg.port_ifindex = now.port_ifindex;
	c.cfg.loop_a = now.loop_a;
	c.cfg.loop_b = now.loop_b;
	return bpfhold_write(h, &c);
}

int bpfhold_read(const struct bpfhold *h, struct bpfhold_stats *out)
{
	uint32_t zero = 0;

	if (h->state_fd < 0 || h->prio_fd < 0)
		return -EBADF;
	if (bpf_map_lookup_elem(h->state_fd, &zero, &out->st))
		return -errno;
	for (uint32_t p = 0; p < PFC_HOLD_NPRIO; p++)
		if (bpf_map_lookup_elem(h->prio_fd, &p, &out->prio[p]))
			return -errno;
	return 0;
}

void bpfhold_close(struct bpfhold *h)
{
	if (h->obj)
		bpf_object__close((struct bpf_object *)h->obj);
	else {
		int fds[4] = {h->cfg_fd, h->state_fd, h->prio_fd, h->dscp_fd};

		for (unsigned i = 0; i < 4; i++)
			if (fds[i] >= 0)
				close(fds[i]);
	}
	bpfhold_init(h);
}

static int bpfhold_unhook_at(int ifindex, enum bpf_tc_attach_point at)
{
	struct bpf_tc_hook hook;
	struct bpf_tc_opts o;

	bpfhold_hook(&hook, ifindex, at);
	bpfhold_opts(&o, 0);
	return bpf_tc_detach(&hook, &o);
}

/* Let the held packets of IFINDEX's loop go rather than drop them with
 * it: no new pause is read (pfc_rx goes), every hold ends now where the
 * maps are at hand (H; a process without CAP_SYS_ADMIN cannot open them
 * by id), nothing new enters the loop (pfc_tx goes: what comes back
 * then leaves by the port), and the loop's fq is given until its
 * packets' departure times (at most BPFHOLD_DRAIN_MS) to empty. */
#define BPFHOLD_DRAIN_MS 4000
static void bpfhold_drain(int ifindex, const struct bpfhold *h)
{
	struct timespec ms = {0, 1000000};
	struct bpfhold_stats s;
	uint32_t zero = 0;

	bpfhold_unhook_at(ifindex, BPF_TC_INGRESS);
	if (h && !bpfhold_read(h, &s)) {
		s.st.lp_until = 0;
		bpf_map_update_elem(h->state_fd, &zero, &s.st, BPF_ANY);
		for (uint32_t p = 0; p < PFC_HOLD_NPRIO; p++) {
			s.prio[p].until = 0;
			bpf_map_update_elem(h->prio_fd, &p, &s.prio[p],
			                    BPF_ANY);
		}
	}
	bpfhold_unhook_at(ifindex, BPF_TC_EGRESS);
	for (unsigned i = 0; i < BPFHOLD_DRAIN_MS; i++) {
		if (bpfhold_loop_qlen(ifindex) <= 0)
			return;
		nanosleep(&ms, NULL);
	}
}

static int bpfhold_unhook(int ifindex)
{
	int in = bpfhold_unhook_at(ifindex, BPF_TC_INGRESS);
	int eg = bpfhold_unhook_at(ifindex, BPF_TC_EGRESS);

	return !in || !eg ? 0 : -ENOENT;
}

void bpfhold_detach(struct bpfhold *h)
{
	if (h->ifindex > 0) {
		if (h->has_loop)
			bpfhold_drain(h->ifindex, h->state_fd >= 0 ? h : NULL);
		bpfhold_unhook(h->ifindex);
		if (h->created_clsact) {
			struct bpf_tc_hook hook;

			bpfhold_hook(&hook, h->ifindex,
			             BPF_TC_INGRESS | BPF_TC_EGRESS);
			bpf_tc_hook_destroy(&hook);
		}
		if (h->has_loop)
			bpfhold_loop_delete(h->ifindex);
	}
	bpfhold_close(h);
}

int bpfhold_release_ifindex(int ifindex)
{
	struct bpfhold h;
	int rc;

	bpfhold_drain(ifindex, bpfhold_find(&h, ifindex) ? NULL : &h);
	bpfhold_close(&h);
	rc = bpfhold_unhook(ifindex);
	/* the loop goes after the programs: nothing is sent into it then */
	if (!bpfhold_loop_delete(ifindex))
		rc = 0;
	return rc;
}

int bpfhold_release_all(size_t *ports)
{
	struct if_nameindex *v = if_nameindex(), *i;

	*ports = 0;
	if (!v)
		return -errno;
	for (i = v; i->if_index; i++) {
		int port;
		char end;

		/* a loop's end A names its port: rocedhNa */
		if (sscanf(i->if_name, "rocedh%d%c", &port, &end) == 2 &&
		    end == 'a' && !bpfhold_release_ifindex(port))
			(*ports)++;
	}
	if_freenameindex(v);
	return 0;
}

#endif /* HAVE_BPF_PROGS */
