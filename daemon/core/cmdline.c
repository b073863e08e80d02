/* cmdline: roced's command line, its one-shot jobs (-n, --dry-run,
 * --once) and the start of the long-running daemon (daemon/core/daemon.c);
 * main() stays a call into roced_main() so that tests can link everything.
 */
#include "core/cmdline.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"
#include "conf/conf.h"
#include "core/daemon.h"
#include "core/import.h"
#include "registry/ports.h"
#include "core/privs.h"
#include "control/ctl_srv.h"
#include "kernel/bpfhold.h"
#include "kernel/engine.h"
#include "os/log.h"
#include "plan/plan_text.h"
#include "plan/plan_warn.h"
#include "kernel/probe.h"
#include "base/strbuf.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

enum cmdline_job {
	CMDLINE_JOB_NONE,
	CMDLINE_JOB_CHECK,
	CMDLINE_JOB_DRYRUN,
	CMDLINE_JOB_ONCE,
	CMDLINE_JOB_RELEASE,
};

struct cmdline {
	enum cmdline_job job;
	const char *file;
	const char *ports; /* comma-separated, NULL = the config's */
	const char *caps;  /* host|full|hw|probe */
	bool syslog;
	const char *ctl_group;
	bool background, cleanup;
	bool force; /* --once or --release-holds beside a running daemon */
	int rtprio; /* --realtime-priority */
	bool kpfc;  /* the kernel path allowed (--kernel-pfc) */
};

#define CMDLINE_MAX_PORTS 4096

static void cmdline_usage(FILE *f)
{
	static const char usage[] =
	    "usage: roced [-f FILE] -n [--caps KIND]\n"
	    "       roced [-f FILE] --dry-run [--ports LIST] [--caps KIND]\n"
	    "       roced [-f FILE] --once [--force] [--ports LIST] [--caps "
	    "KIND]\n"
	    "       roced --release-holds [--force]\n"
	    "       roced [-f FILE] [-D SUBSYS,...] [--syslog] [--caps KIND]\n"
	    "             [-G GROUP] [-b] [--cleanup-on-exit]\n"
	    "             [--realtime-priority N] [--kernel-pfc]\n"
	    "       roced -h | -V\n"
	    "\n"
	    "  -f, --file FILE     configuration (default "
	    "%s/roced/roced.conf)\n"
	    "  -n, --check         check the configuration and exit\n"
	    "      --dry-run       print the plan as tc batch lines with the\n"
	    "                      DCB part as '#dcb' lines, then exit\n"
	    "      --once          apply the plan to the kernel once, print a\n"
	    "                      summary per port, then exit (refused\n"
	    "                      where a roced daemon runs)\n"
	    "      --release-holds release every queue that software PFC\n"
	    "                      holds, and change nothing else, then exit\n"
	    "                      (after a roced died: the unit's\n"
	    "                      ExecStopPost=; refused where a roced\n"
	    "                      daemon runs)\n"
	    "      --force         with --once or --release-holds: run\n"
	    "                      beside a daemon anyway\n"
	    "      --ports LIST    plan these ports (names or NX-OS aliases,\n"
	    "                      comma-separated) instead of the config's\n"
	    "      --caps KIND     capabilities to plan for: host (minimal\n"
	    "                      kernel), full (distro kernel, software\n"
	    "                      DCB), hw (distro kernel, DCB NIC), probe\n"
	    "                      (ask the running kernel; the default)\n"
	    "  -D, --debug LIST    debug subsystems: all, conf, apply, link,\n"
	    "                      dcbx, watchdog, ctl (comma-separated)\n"
	    "      --syslog        log to syslog instead of stderr\n"
	    "  -G, --ctl-group GROUP  the control socket's group: its members\n"
	    "                      may configure through rocesh (default:\n"
	    "                      root only)\n"
	    "  -b, --background    run in the background (pid file in\n"
	    "                      /run/roced), returning once ready\n"
	    "      --cleanup-on-exit  remove roced's tc objects on SIGTERM\n"
	    "      --kernel-pfc    honour pause received in the kernel (BPF)\n"
	    "                      where it can (roced(8)); also -n/--dry-run\n"
	    "      --realtime-priority N  run at SCHED_FIFO priority N, 1-99\n"
	    "                      (default 10), so that software PFC holds\n"
	    "                      within a poll on a busy host; 0: keep the\n"
	    "                      scheduling roced was started with\n"
	    "      --import cumulus FILE  print FILE, a Cumulus Linux 3.x\n"
	    "                      traffic.conf, as roced.conf, then exit\n"
	    "  -h, --help          this help\n"
	    "  -V, --version       print the version\n";

	fprintf(f, usage, SYSCONFDIR);
}

/* Print every diagnostic of D, errors and warnings alike, to stderr. */
static void cmdline_print_diag(const struct diag *d, const char *prefix)
{
	char line[1024];

	for (size_t i = 0; i < d->n; i++) {
		diag_format(d, i, line, sizeof(line));
		fprintf(stderr, "%s%s\n", prefix ? prefix : "", line);
	}
}

static void cmdline_warn_line(const char *line, void *data)
{
	(void)data;
	fprintf(stderr, "%s\n", line);
}

/* The ports' plan warnings, pointed at the statement they come from, each
 * once with its ports: "FILE:LINE: warning: swp1-swp256: text". */
static void cmdline_print_plan_warnings(const char *file, const struct plan *pl)
{
	if (plan_warn_each(pl, file, cmdline_warn_line, NULL) < 0)
		fprintf(stderr, "roced: out of memory\n");
}

/* The kernel's capabilities for --caps: a preset, or the running
 * kernel's (then each port's own part is probed too). Returns 0 or -1. */
static int cmdline_kernel_caps(const char *kind, struct caps *out, bool *probe)
{
	char err[256];
	int preset = caps_preset_parse(kind);

	*probe = preset < 0;
	if (preset >= 0) {
		caps_preset(out, (enum caps_preset)preset);
	} else {
		memset(out, 0, sizeof(*out));
		if (probe_kernel(out, err, sizeof(err)) < 0) {
			fprintf(stderr, "roced: %s\n", err);
			return -1;
		}
	}
	/* the build's part: whether software PFC may run in the kernel */
	out->bpf_progs = bpfhold_built(NULL);
	return 0;
}

/* --ports: the names (NX-OS aliases resolved) into NAMES. Returns the
 * count or -1. */
static int cmdline_port_names(const char *list, const struct policy *p,
                              char (*names)[POLICY_IFNAME_MAX], size_t max)
{
	char *copy = strdup(list), *save = NULL;
	size_t n = 0;

	if (!copy)
		return -1;
	for (char *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct policy_iface *iface = policy_find_iface(p, tok);
		const char *name = iface ? iface->name : tok;

		if (n == max || strlen(name) >= POLICY_IFNAME_MAX) {
			fprintf(stderr, "roced: --ports: invalid port '%s'\n",
			        tok);
			free(copy);
			return -1;
		}
		snprintf(names[n++], POLICY_IFNAME_MAX, "%s", name);
	}
	free(copy);
	return (int)n;
}

/* The ports' own capabilities, probed here into the registry REG (which
 * asks the kernel nothing): NAMES (N; NULL: all P configures). */
static int cmdline_probe(struct ports *reg, const struct policy *p,
                         char (*names)[POLICY_IFNAME_MAX], size_t n)
{
	struct compile_port *snap;
	int k = ports_probe_due(reg, p, names, n, &snap);

	if (k > 0)
		ports_probed(reg, snap, (size_t)k,
		             probe_ports(snap, (size_t)k, NULL));
	free(snap);
	return k < 0 ? k : 0;
}

/* Compile for the chosen ports (--ports, or the configuration's); prints
 * errors at their FILE:LINE. Returns 0 or -1. */
static int cmdline_compile(const struct cmdline *cl, const struct policy *p,
                           struct plan *pl)
{
	char(*names)[POLICY_IFNAME_MAX] = NULL;
	struct ports reg;
	struct caps kernel;
	struct diag errs;
	bool probe;
	int n = 0, rc = -1;

	plan_init(pl);
	if (cl->ports) {
		names = calloc(CMDLINE_MAX_PORTS, sizeof(*names));
		n = names ? cmdline_port_names(cl->ports, p, names,
		                               CMDLINE_MAX_PORTS)
		          : -1;
		if (n < 0) {
			free(names);
			return -1;
		}
	}
	/* No port to plan: nothing to ask the kernel. */
	memset(&kernel, 0, sizeof(kernel));
	probe = false;
	if ((cl->ports ? n : (int)p->nifaces) > 0 &&
	    cmdline_kernel_caps(cl->caps, &kernel, &probe) < 0)
		goto out;
	ports_init(&reg, &kernel, probe);
	reg.kpfc = cl->kpfc;
	diag_init(&errs, cl->file);
	rc = cmdline_probe(&reg, p, names, (size_t)n);
	if (rc == 0)
		rc = ports_compile(&reg, p, cl->file, names, (size_t)n, pl,
		                   &errs);
	if (reg.unprobed)
		fprintf(stderr, "roced: warning: cannot probe the ports: "
		                "planning them as software ports of unknown "
		                "speed\n");
	if (rc == -EINVAL)
		cmdline_print_diag(&errs, "roced: ");
	else if (rc < 0)
		fprintf(stderr, "roced: out of memory while compiling\n");
	diag_free(&errs);
	ports_free(&reg);
	rc = rc < 0 ? -1 : 0;
out:
	if (rc < 0)
		plan_free(pl);
	free(names);
	return rc;
}

/* --once: a roced daemon serving this namespace would take --once's
 * writes for someone else's changes and undo them (and --once would undo
 * what rocesh told the daemon): refused. The daemon's instance lock is
 * taken, and held in *LOCKFD until --once is done, so that no daemon
 * starts meanwhile. Returns 0, or -1 with the reason printed. */
/* Whether the kernel can be probed here without privileges (a user
 * namespace of the probe's own: probe.c). */
static bool cmdline_can_probe(void)
{
	struct caps c;
	char err[256];

	return probe_kernel(&c, err, sizeof(err)) == 0;
}

static int cmdline_once_alone(int *lockfd)
{
	char err[256];
	int fd = ctl_instance_lock(err, sizeof(err));

	if (fd == -EADDRINUSE) {
		fprintf(stderr,
		        "roced: --once: %s: it keeps the ports as its "
		        "configuration says; change that through rocesh or a "
		        "reload, or use --force\n",
		        err);
		return -1;
	}
	/* Cannot tell (no lock to take): a daemon could not have taken it
	 * either. */
	if (fd < 0)
		fprintf(stderr, "roced: warning: --once: %s\n", err);
	*lockfd = fd;
	return 0;
}

/* --release-holds: what a roced that died or hung left held is
 * released (engine_release_holds), nothing else. No configuration is
 * read: a held queue is held whatever the file says now. */
static int cmdline_release(const struct cmdline *cl)
{
	size_t ports = 0, leaves = 0, bpf_ports = 0;
	char err[512];
	int rc, lockfd = -1;

	if (!cl->force) {
		/* A running daemon holds and releases its queues itself. */
		int fd = ctl_instance_lock(err, sizeof(err));

		if (fd == -EADDRINUSE) {
			fprintf(stderr,
			        "roced: --release-holds: %s: it releases its "
			        "holds itself (use --force)\n",
			        err);
			return 1;
		}
		lockfd = fd;
	}
	rc = engine_release_holds(&ports, &leaves, err, sizeof(err));
	/* ... and software PFC's kernel path: its programs and loops,
	 * which hold by themselves, whoever loaded them. */
	if (rc >= 0 && bpfhold_release_all(&bpf_ports) < 0)
		fprintf(stderr,
		        "roced: --release-holds: cannot list the "
		        "links: %s\n",
		        strerror(errno));
	if (lockfd >= 0)
		close(lockfd);
	if (rc < 0) {
		fprintf(stderr, "roced: --release-holds: %s\n", err);
		return 1;
	}
	printf("roced: released %zu held queue%s on %zu port%s\n", leaves,
	       leaves == 1 ? "" : "s", ports, ports == 1 ? "" : "s");
	if (bpf_ports)
		printf("roced: removed the kernel PFC hold from %zu port%s\n",
		       bpf_ports, bpf_ports == 1 ? "" : "s");
	return fflush(stdout) == 0 ? 0 : 1;
}

static int cmdline_run(const struct cmdline *cl)
{
	char fname[4 * PATH_MAX];
	struct policy p;
	struct diag d;
	struct plan pl;
	int rc = 1, lockfd = -1;

	/* The file's name as the messages quote it: escaped, as
	 * diag_format() escapes the rest. */
	escape_buf(fname, sizeof(fname), cl->file, strlen(cl->file), 0);
	diag_init(&d, cl->file);
	if (conf_load_file(cl->file, &p, &d) < 0) {
		diag_sort(&d);
		cmdline_print_diag(&d, NULL);
		fprintf(stderr, "roced: %zu error%s in %s\n", d.nerrors,
		        d.nerrors == 1 ? "" : "s", fname);
		diag_free(&d);
		return 1;
	}
	diag_sort(&d);
	cmdline_print_diag(&d, NULL); /* warnings */
	/* Valid, but what a file caught half written looks like: the
	 * check says what a running roced will make of it. */
	if (cl->job == CMDLINE_JOB_CHECK && !p.ifaces_line)
		fprintf(stderr,
		        "roced: note: %s has no interface list: it programs no "
		        "port, and a roced that programs ports refuses to "
		        "reload it unless forced (an empty `interface = ( );` "
		        "says it is meant)\n",
		        fname);

	if (cl->job == CMDLINE_JOB_CHECK && !strcmp(cl->caps, "probe") &&
	    geteuid() != 0 && !cmdline_can_probe()) {
		/* Probing needs privileges a config check should not. */
		fprintf(stderr,
		        "roced: note: not root, kernel capabilities not "
		        "probed: plan warnings not checked (use --caps)\n");
		printf("configuration OK\n");
		rc = 0;
		goto out;
	}
	if (cl->job == CMDLINE_JOB_ONCE && !cl->force &&
	    cmdline_once_alone(&lockfd) < 0)
		goto out;
	if (cmdline_compile(cl, &p, &pl) < 0)
		goto out;
	if (cl->job == CMDLINE_JOB_ONCE) {
		struct engine e;

		rc = engine_open(&e, false, NULL, NULL);
		if (rc < 0) {
			fprintf(stderr, "roced: cannot open netlink: %s\n",
			        strerror(-rc));
			rc = 1;
		} else {
			/* With the config's own ports, roced also cleans up
			 * ports it configured before; --ports narrows the
			 * job to the ports named. */
			rc = engine_once(&e, &pl, !cl->ports, stdout) ? 1 : 0;
			engine_close(&e);
		}
		cmdline_print_plan_warnings(cl->file, &pl);
		plan_free(&pl);
		goto out;
	}
	if (cl->job == CMDLINE_JOB_CHECK) {
		/* What the kernel cannot realise is a warning, not an error:
		 * show it so `roced -n` tells the whole story. */
		cmdline_print_plan_warnings(cl->file, &pl);
		cmdline_print_diag(&pl.diag, NULL);
		printf("configuration OK\n");
	} else {
		struct strbuf sb;

		strbuf_init(&sb);
		plan_text_write(&pl, &sb);
		if (sb.oom) {
			fprintf(stderr, "roced: out of memory\n");
			strbuf_free(&sb);
			plan_free(&pl);
			goto out;
		}
		fputs(strbuf_str(&sb), stdout);
		strbuf_free(&sb);
	}
	plan_free(&pl);
	rc = 0;
out:
	if (lockfd >= 0)
		close(lockfd);
	policy_free(&p);
	diag_free(&d);
	/* Diagnostics first, as an unbuffered stderr would have them. */
	fflush(stderr);
	return fflush(stdout) == 0 ? rc : 1;
}

int roced_main(int argc, char **argv)
{
	enum {
		OPT_DRYRUN = 256,
		OPT_PORTS,
		OPT_CAPS,
		OPT_ONCE,
		OPT_SYSLOG,
		OPT_CLEANUP,
		OPT_FORCE,
		OPT_IMPORT,
		OPT_RELEASE,
		OPT_RTPRIO,
		OPT_KPFC,
		OPT_NO_KPFC
	};
	static const struct option opts[] = {
	    {"file", required_argument, NULL, 'f'},
	    {"check", no_argument, NULL, 'n'},
	    {"dry-run", no_argument, NULL, OPT_DRYRUN},
	    {"once", no_argument, NULL, OPT_ONCE},
	    {"force", no_argument, NULL, OPT_FORCE},
	    {"release-holds", no_argument, NULL, OPT_RELEASE},
	    {"debug", required_argument, NULL, 'D'},
	    {"syslog", no_argument, NULL, OPT_SYSLOG},
	    {"ctl-group", required_argument, NULL, 'G'},
	    {"background", no_argument, NULL, 'b'},
	    {"cleanup-on-exit", no_argument, NULL, OPT_CLEANUP},
	    {"realtime-priority", required_argument, NULL, OPT_RTPRIO},
	    {"kernel-pfc", no_argument, NULL, OPT_KPFC},
	    {"no-kernel-pfc", no_argument, NULL, OPT_NO_KPFC},
	    {"ports", required_argument, NULL, OPT_PORTS},
	    {"caps", required_argument, NULL, OPT_CAPS},
	    {"import", required_argument, NULL, OPT_IMPORT},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	struct cmdline cl = {
	    .file = SYSCONFDIR "/roced/roced.conf",
	    .caps = "probe",
	    .rtprio = PRIVS_RTPRIO_DEFAULT,
	};
	const char *import = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "f:nD:G:bhV", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			cl.file = optarg;
			break;
		case 'n':
			cl.job = CMDLINE_JOB_CHECK;
			break;
		case OPT_DRYRUN:
			cl.job = CMDLINE_JOB_DRYRUN;
			break;
		case OPT_ONCE:
			cl.job = CMDLINE_JOB_ONCE;
			break;
		case 'D': {
			char err[160];

			if (log_debug_enable(optarg, err, sizeof(err)) < 0) {
				fprintf(stderr, "roced: %s\n", err);
				return 2;
			}
			break;
		}
		case OPT_SYSLOG:
			cl.syslog = true;
			break;
		case 'G':
			cl.ctl_group = optarg;
			break;
		case 'b':
			cl.background = true;
			break;
		case OPT_CLEANUP:
			cl.cleanup = true;
			break;
		case OPT_FORCE:
			cl.force = true;
			break;
		case OPT_RELEASE:
			cl.job = CMDLINE_JOB_RELEASE;
			break;
		case OPT_PORTS:
			cl.ports = optarg;
			break;
		case OPT_CAPS:
			cl.caps = optarg;
			break;
		case OPT_IMPORT:
			import = optarg;
			break;
		case OPT_KPFC:
			cl.kpfc = true;
			break;
		case OPT_NO_KPFC: /* the default, named */
			cl.kpfc = false;
			break;
		case OPT_RTPRIO: {
			char *end;
			long v;

			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 0 || v > 99) {
				fprintf(stderr,
				        "roced: invalid --realtime-priority "
				        "'%s', expected 0-99\n",
				        optarg);
				return 2;
			}
			cl.rtprio = (int)v;
			break;
		}
		case 'h':
			cmdline_usage(stdout);
			return 0;
		case 'V':
			printf("roced %s\n", PACKAGE_VERSION);
			return 0;
		default:
			cmdline_usage(stderr);
			return 2;
		}
	}
	/* --import FORMAT FILE: a translation, nothing else runs. */
	if (import) {
		if (optind + 1 != argc) {
			fprintf(stderr,
			        "roced: --import %s takes one FILE "
			        "(- for standard input)\n",
			        import);
			return 2;
		}
		return import_run(import, argv[optind]);
	}
	if (optind < argc) {
		fprintf(stderr, "roced: unexpected argument '%s'\n",
		        argv[optind]);
		cmdline_usage(stderr);
		return 2;
	}
	if (caps_preset_parse(cl.caps) < 0 && strcmp(cl.caps, "probe")) {
		fprintf(
		    stderr,
		    "roced: invalid --caps '%s', expected host, full, hw or "
		    "probe\n",
		    cl.caps);
		return 2;
	}
	if (cl.force && cl.job != CMDLINE_JOB_ONCE &&
	    cl.job != CMDLINE_JOB_RELEASE) {
		fprintf(stderr,
		        "roced: --force goes with --once or --release-holds\n");
		return 2;
	}
	if (cl.job == CMDLINE_JOB_NONE) {
		struct daemon_opts o = {.file = cl.file,
		                        .caps = cl.caps,
		                        .syslog = cl.syslog,
		                        .ctl_group = cl.ctl_group,
		                        .background = cl.background,
		                        .cleanup = cl.cleanup,
		                        .rtprio = cl.rtprio,
		                        .kpfc = cl.kpfc};

		return daemon_run(&o);
	}
	/* A one-shot job writes its output in one go, not a write() per
	 * line; a terminal still sees each line as it comes. */
	if (!isatty(STDERR_FILENO))
		setvbuf(stderr, NULL, _IOFBF, BUFSIZ);
	if (cl.job == CMDLINE_JOB_RELEASE)
		return cmdline_release(&cl);
	return cmdline_run(&cl);
}
