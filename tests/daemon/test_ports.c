/* Tests for daemon/registry/ports.c, the port registry: the compile inputs it
 * builds, compile errors at their FILE:LINE, the applied plan and the
 * reason a port is not programmed. No kernel state: the capabilities are
 * a preset (or probed for ports that do not exist) and the apply results
 * are made up. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf/conf.h"
#include "kernel/probe.h"
#include "registry/ports.h"

/* conf/roced.conf with a second port, swp2, on the system defaults. */
static void load(struct policy *p)
{
	struct diag d;

	diag_init(&d, NULL);
	assert_int_equal(conf_load_file(TEST_SRCDIR "/conf/roced.conf", p, &d),
	                 0);
	diag_free(&d);
	assert_int_equal(p->nifaces, 1);
	assert_non_null(policy_add_iface(p, "swp2"));
}

/* ports_compile() after the probe snapshot the registry says is due,
 * taken as the daemon takes it (the registry asks the kernel nothing). */
static int compile_probed(struct ports *r, const struct policy *p,
                          char (*names)[POLICY_IFNAME_MAX], size_t n,
                          struct plan *pl)
{
	struct compile_port *snap;
	int k = ports_probe_due(r, p, names, n, &snap);

	if (k > 0)
		ports_probed(r, snap, (size_t)k,
		             probe_ports(snap, (size_t)k, NULL));
	free(snap);
	if (k < 0)
		return k;
	return ports_compile(r, p, "c", names, n, pl, NULL);
}

static void hw_registry(struct ports *r)
{
	struct caps caps;

	caps_preset(&caps, CAPS_PRESET_HW);
	ports_init(r, &caps, false);
}

/* Every port the policy configures gets an entry with the registry's
 * capabilities, and compile plans them in the policy's order. */
static void test_compile_inputs(void **state)
{
	char names[3][POLICY_IFNAME_MAX] = {"swp9", "swp1", "swp9"};
	struct ports r;
	struct policy p;
	struct plan pl;

	(void)state;
	load(&p);
	hw_registry(&r);
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&r, &p, "roced.conf", NULL, 0, &pl, NULL), 0);
	assert_int_equal(pl.nports, 2);
	assert_string_equal(pl.ports[0].ifname, "swp1");
	assert_string_equal(pl.ports[1].ifname, "swp2");
	assert_true(pl.ports[0].caps.hw_dcb);
	assert_false(pl.ports[0].dcb.software);
	assert_int_equal(r.n, 2);
	assert_non_null(ports_find(&r, "swp1"));
	assert_non_null(ports_find(&r, "swp2"));
	assert_null(ports_find(&r, "swp3"));
	assert_false(r.unprobed);
	assert_false(ports_programmed(ports_find(&r, "swp1")));
	plan_free(&pl);

	/* Named ports (roced --ports): in their order, each entry once. */
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&r, &p, "roced.conf", names, 3, &pl, NULL), 0);
	assert_int_equal(pl.nports, 3);
	assert_string_equal(pl.ports[0].ifname, "swp9");
	assert_string_equal(pl.ports[1].ifname, "swp1");
	assert_int_equal(r.n, 3);
	assert_non_null(ports_find(&r, "swp9"));
	plan_free(&pl);

	/* The entries follow the running policy. */
	ports_prune(&r, &p);
	assert_int_equal(r.n, 2);
	assert_null(ports_find(&r, "swp9"));
	assert_non_null(ports_find(&r, "swp2"));
	ports_free(&r);
	policy_free(&p);
}

/* A policy that does not compile (validation normally rules this out)
 * reports each error at the line of the statement that caused it: as a
 * line of the file's list (a reload), or written in front of the text in
 * a list without a file (a rocesh commit). */
static void test_compile_error_file_line(void **state)
{
	struct ports r;
	struct policy p;
	struct plan pl;
	struct diag file, cli;
	char line[512];

	(void)state;
	load(&p);
	snprintf(p.ifaces[0].queuing_output, sizeof(p.ifaces[0].queuing_output),
	         "NOSUCH");
	p.ifaces[0].queuing_output_line = 42;
	hw_registry(&r);

	diag_init(&file, "roced.conf");
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&r, &p, "roced.conf", NULL, 0, &pl, &file), -EINVAL);
	plan_free(&pl);
	assert_int_equal(file.nerrors, 1);
	diag_format(&file, 0, line, sizeof(line));
	assert_string_equal(line, "roced.conf:42: error: swp1: queuing "
	                          "policy-map NOSUCH is not defined");

	diag_init(&cli, NULL);
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&r, &p, "roced.conf", NULL, 0, &pl, &cli), -EINVAL);
	plan_free(&pl);
	assert_int_equal(cli.nerrors, 1);
	assert_string_equal(cli.v[0].text, "roced.conf:42: swp1: queuing "
	                                   "policy-map NOSUCH is not defined");

	/* Nothing reached the kernel, and the ports say why. */
	assert_false(ports_find(&r, "swp1")->applied);
	assert_non_null(
	    strstr(ports_find(&r, "swp1")->reason, "does not compile"));
	diag_free(&file);
	diag_free(&cli);
	ports_free(&r);
	policy_free(&p);
}

/* The plan handed to the kernel moves into the registry with its result:
 * only a port the kernel took is programmed, the others say why; the
 * orphans the apply added are not the registry's. */
static void test_applied(void **state)
{
	struct reconcile_result res[3] = {
	    {.ifname = "swp1", .status = RECONCILE_OK},
	    {.ifname = "swp2", .status = RECONCILE_ABSENT},
	    {.ifname = "old0", .status = RECONCILE_OK},
	};
	struct ports_port *e1, *e2;
	struct ports r;
	struct policy p;
	struct plan pl;
	size_t nqdiscs;

	(void)state;
	load(&p);
	hw_registry(&r);
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&r, &p, "roced.conf", NULL, 0, &pl, NULL), 0);
	nqdiscs = pl.ports[0].nqdiscs;
	assert_true(nqdiscs > 0);
	assert_non_null(plan_add_port(&pl, "old0")); /* an orphan */
	ports_applied(&r, &pl, 2, res, NULL);
	e1 = ports_find(&r, "swp1");
	e2 = ports_find(&r, "swp2");
	assert_true(ports_programmed(e1));
	assert_int_equal(ports_state(e1), PLAN_PORT_PROGRAMMED);
	assert_true(e1->news); /* the first apply */
	assert_string_equal(e1->reason, "");
	assert_int_equal(e1->plan.nqdiscs, nqdiscs);
	assert_string_equal(e1->plan.queuing_policy, "ROCE_QUEUING_OUT");
	assert_int_equal(pl.ports[0].nqdiscs, 0); /* moved, not copied */
	assert_true(e2->applied);
	assert_false(ports_programmed(e2));
	assert_int_equal(e2->status, RECONCILE_ABSENT);
	assert_int_equal(ports_state(e2), PLAN_PORT_NOT_PROGRAMMED);
	assert_non_null(strstr(e2->reason, "no such link"));
	assert_null(ports_find(&r, "old0"));
	plan_free(&pl);

	/* The same result again is no news. */
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&r, &p, "roced.conf", NULL, 0, &pl, NULL), 0);
	ports_applied(&r, &pl, pl.nports, res, NULL);
	plan_free(&pl);
	assert_false(ports_find(&r, "swp1")->news);
	assert_false(ports_find(&r, "swp2")->news);

	/* Refused on the next passes, a foreign root qdisc in the way: the
	 * kernel holds the old state, the reason names the qdisc, and only
	 * the first of these passes is news. */
	res[0].status = RECONCILE_REFUSED;
	snprintf(res[0].error, sizeof(res[0].error),
	         "swp1: a root qdisc roced did not create is in the way");
	snprintf(res[0].foreign_kind, sizeof(res[0].foreign_kind), "htb");
	res[0].foreign_handle = 0x10000;
	for (int pass = 0; pass < 3; pass++) {
		plan_init(&pl);
		assert_int_equal(
		    ports_compile(&r, &p, "roced.conf", NULL, 0, &pl, NULL), 0);
		ports_applied(&r, &pl, pl.nports, res, NULL);
		plan_free(&pl);
		e1 = ports_find(&r, "swp1");
		assert_true(e1->applied);
		assert_false(ports_programmed(e1));
		assert_int_equal(e1->status, RECONCILE_REFUSED);
		assert_int_equal(ports_state(e1), PLAN_PORT_REFUSED);
		assert_string_equal(e1->foreign_kind, "htb");
		assert_int_equal(e1->foreign_handle, 0x10000);
		assert_non_null(
		    strstr(e1->reason, "foreign root qdisc htb 1: "));
		assert_int_equal(e1->news, pass == 0);
	}
	/* Another foreign root is news again. */
	res[0].foreign_handle = 0x20000;
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&r, &p, "roced.conf", NULL, 0, &pl, NULL), 0);
	ports_applied(&r, &pl, pl.nports, res, NULL);
	plan_free(&pl);
	assert_true(ports_find(&r, "swp1")->news);
	assert_non_null(
	    strstr(ports_find(&r, "swp1")->reason, "qdisc htb 2: "));

	/* The kernel refused a request: its words are the reason. */
	res[0].status = RECONCILE_ROLLED_BACK;
	snprintf(res[0].error, sizeof(res[0].error),
	         "swp1: add qdisc htb 4791: root: Invalid argument: extack");
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&r, &p, "roced.conf", NULL, 0, &pl, NULL), 0);
	ports_applied(&r, &pl, pl.nports, res, NULL);
	plan_free(&pl);
	e1 = ports_find(&r, "swp1");
	assert_int_equal(ports_state(e1), PLAN_PORT_NOT_PROGRAMMED);
	assert_string_equal(e1->reason,
	                    "the kernel refused swp1: add qdisc htb 4791: "
	                    "root: Invalid argument: extack");
	assert_true(e1->news);

	/* Nothing written (the kernel could not be read): the last apply
	 * stays. */
	res[0].status = RECONCILE_OK;
	plan_init(&pl);
	assert_int_equal(
	    ports_compile(&r, &p, "roced.conf", NULL, 0, &pl, NULL), 0);
	ports_applied(&r, &pl, pl.nports, NULL, "not applied: No buffer space");
	plan_free(&pl);
	assert_int_equal(ports_find(&r, "swp1")->status, RECONCILE_ROLLED_BACK);
	assert_false(ports_find(&r, "swp1")->news);
	ports_free(&r);
	policy_free(&p);
}

/* Before any apply, and for a link roced does not configure: an empty
 * plan that leaves the port alone, of the kind its capabilities say. */
/* A port's own capabilities are probed when it gets its entry, after a
 * link event about it and at every full apply (start, reload, commit),
 * never for the apply that only a hold or release of software PFC or
 * the watchdog's shut caused: that one must reach the kernel within a
 * pause's few milliseconds, and the probe waits for the kernel's RTNL
 * lock. */
static void test_probe_when(void **state)
{
	char one[1][POLICY_IFNAME_MAX] = {"swp1"};
	char fresh[1][POLICY_IFNAME_MAX] = {"swp3"};
	struct ports_port *e;
	struct caps caps;
	struct ports r;
	struct policy p;
	struct plan pl;

	(void)state;
	load(&p);
	caps_preset(&caps, CAPS_PRESET_HOST);
	ports_init(&r, &caps, true);

	/* the first apply probes every port */
	plan_init(&pl);
	assert_int_equal(compile_probed(&r, &p, NULL, 0, &pl), 0);
	plan_free(&pl);
	assert_false(r.unprobed);
	assert_int_equal(r.nprobed, 2);

	/* holds and releases: no probe */
	e = ports_find(&r, "swp1");
	e->watchdog.pfc_hold = 0x08;
	plan_init(&pl);
	assert_int_equal(compile_probed(&r, &p, one, 1, &pl), 0);
	plan_free(&pl);
	e->watchdog.pfc_hold = 0;
	e->watchdog.lp_hold = true;
	plan_init(&pl);
	assert_int_equal(compile_probed(&r, &p, one, 1, &pl), 0);
	plan_free(&pl);
	e->watchdog.lp_hold = false;
	e->watchdog.wd_shut = 0x08;
	plan_init(&pl);
	assert_int_equal(compile_probed(&r, &p, one, 1, &pl), 0);
	plan_free(&pl);
	assert_int_equal(r.nprobed, 2);

	/* a link event about the port: probed at its next apply, once */
	ports_stale(&r, "swp1");
	ports_stale(&r, "nosuch"); /* no entry: nothing to do */
	for (int i = 0; i < 2; i++) {
		plan_init(&pl);
		assert_int_equal(compile_probed(&r, &p, one, 1, &pl), 0);
		plan_free(&pl);
	}
	assert_int_equal(r.nprobed, 3);

	/* a port that appears (a commit adding it would probe it too) */
	assert_non_null(policy_add_iface(&p, "swp3"));
	plan_init(&pl);
	assert_int_equal(compile_probed(&r, &p, fresh, 1, &pl), 0);
	plan_free(&pl);
	assert_int_equal(r.nprobed, 4);

	/* a reload probes every port again */
	plan_init(&pl);
	assert_int_equal(compile_probed(&r, &p, NULL, 0, &pl), 0);
	plan_free(&pl);
	assert_int_equal(r.nprobed, 7);

	/* a preset registry never probes */
	ports_free(&r);
	ports_init(&r, &caps, false);
	plan_init(&pl);
	assert_int_equal(compile_probed(&r, &p, NULL, 0, &pl), 0);
	plan_free(&pl);
	assert_int_equal(r.nprobed, 0);
	ports_free(&r);
	policy_free(&p);
}

/* A dry run (`reload config dry-run`, a session's check) plans a
 * candidate from the registry as it stands and changes nothing in it: no
 * entry added for the candidate's new port nor dropped for the one it
 * leaves out, none probed again, no DCBX outcome marked planned. The
 * plan is what the full apply of the candidate would plan. */
static void test_plan_dry(void **state)
{
	struct ports_port before[2], *e;
	struct caps caps;
	struct ports r;
	struct policy p, cand;
	struct plan pl, real;
	struct compile_port unknown[2];
	size_t nprobed;
	struct diag d;

	(void)state;
	load(&p);
	caps_preset(&caps, CAPS_PRESET_HOST);
	ports_init(&r, &caps, true);
	plan_init(&pl);
	assert_int_equal(compile_probed(&r, &p, NULL, 0, &pl), 0);
	plan_free(&pl);
	assert_int_equal(r.n, 2);
	e = ports_find(&r, "swp2");
	e->dcbx.has = true;
	e->dcbx.due = true;
	e->mtu_orig = 1500;
	memcpy(before, r.v, sizeof(before));
	nprobed = r.nprobed;

	/* the candidate drops swp2 and adds swp3 */
	diag_init(&d, NULL);
	assert_int_equal(
	    conf_load_file(TEST_SRCDIR "/conf/roced.conf", &cand, &d), 0);
	diag_free(&d);
	assert_non_null(policy_add_iface(&cand, "swp3"));
	plan_init(&pl);
	assert_int_equal(ports_unknown(&r, &cand, unknown), 1);
	assert_string_equal(unknown[0].ifname, "swp3");
	assert_int_equal(probe_ports(unknown, 1, NULL), 0);
	assert_int_equal(ports_plan(&r, &cand, "c", unknown, 1, &pl, NULL), 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.nprobed, nprobed);
	assert_memory_equal(r.v, before, sizeof(before));
	/* swp1, swp3, then swp2's release (its MTU goes back) */
	assert_int_equal(pl.nports, 3);
	assert_string_equal(pl.ports[1].ifname, "swp3");
	assert_string_equal(pl.ports[2].ifname, "swp2");
	assert_int_equal(pl.ports[2].dcb.mtu, 1500);

	/* the same plan as the apply's own compile */
	plan_init(&real);
	assert_int_equal(compile_probed(&r, &cand, NULL, 0, &real), 0);
	assert_int_equal(real.nports, pl.nports);
	for (size_t i = 0; i < pl.nports; i++)
		assert_int_equal(pl.ports[i].nqdiscs, real.ports[i].nqdiscs);
	plan_free(&real);
	plan_free(&pl);
	ports_free(&r);
	policy_free(&cand);
	policy_free(&p);
}

static void test_unplanned(void **state)
{
	struct plan_port pp;
	struct caps caps;

	(void)state;
	caps_preset(&caps, CAPS_PRESET_FULL);
	ports_unplanned("veth0", "Ethernet1/9", &caps, &pp);
	assert_string_equal(pp.ifname, "veth0");
	assert_string_equal(pp.alias, "Ethernet1/9");
	assert_int_equal(pp.layout, PLAN_LAYOUT_NONE);
	assert_int_equal(pp.nqdiscs, 0);
	assert_true(pp.dcb.software);
	assert_true(pp.dcb.unmanaged);
	assert_string_equal(pp.queuing_policy, "");
}

/* Changes by others: due once per burst; contested after
 * PORTS_REPAIR_MAX repairs within the window, not before, and not when
 * they are spread out; quiet or a reload ends it. */
static void test_contested(void **state)
{
	struct ports_port e;
	struct ports r = {.v = &e, .n = 1};
	double t = 1000;

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_true(ports_changed(&e, "qdisc htb 4791: root deleted", t));
	assert_true(ports_changed(&e, "class htb 4791:13 changed", t + 1));
	assert_true(e.repair_due);
	assert_string_equal(e.repair_what, "qdisc htb 4791: root deleted");
	assert_int_equal(e.repair_more, 1);

	/* spread out: never contested */
	for (int i = 0; i < 3 * PORTS_REPAIR_MAX; i++)
		assert_false(
		    ports_repaired(&e, t + i * PORTS_REPAIR_WINDOW_MS / 2));
	assert_false(e.contested);

	/* in a burst: the PORTS_REPAIR_MAX-th within the window */
	t += 100 * PORTS_REPAIR_WINDOW_MS;
	for (int i = 0; i < PORTS_REPAIR_MAX - 1; i++)
		assert_false(ports_repaired(&e, t + i * 100));
	assert_true(ports_repaired(&e, t + PORTS_REPAIR_WINDOW_MS - 1));
	assert_true(e.contested);
	assert_false(ports_repaired(&e, t + PORTS_REPAIR_WINDOW_MS)); /* once */

	/* contested: changes are not repaired, and keep it contested */
	e.repair_due = false;
	t += PORTS_REPAIR_WINDOW_MS;
	assert_false(ports_changed(&e, "qdisc htb 4791: root deleted", t));
	assert_false(e.repair_due);
	assert_false(ports_quiet(&e, t + PORTS_QUIET_MS - 1));
	assert_true(e.contested);
	assert_true(ports_quiet(&e, t + PORTS_QUIET_MS));
	assert_false(e.contested);
	assert_true(e.repair_due);
	assert_false(ports_quiet(&e, t + 2 * PORTS_QUIET_MS));

	/* fought over again, then a reload */
	t += 10 * PORTS_QUIET_MS;
	for (int i = 0; i < PORTS_REPAIR_MAX - 1; i++)
		assert_false(ports_repaired(&e, t + i));
	assert_true(ports_repaired(&e, t + PORTS_REPAIR_MAX));
	ports_uncontest(&r);
	assert_false(e.contested);
	assert_false(e.repair_due);
	assert_true(ports_changed(&e, "class htb 4791:13 changed", t + 10));
}

/* Compile and "apply" P with every port ending as RES says. */
static void apply(struct ports *r, const struct policy *p,
                  struct reconcile_result *res, struct plan *out)
{
	plan_init(out);
	assert_int_equal(ports_compile(r, p, "roced.conf", NULL, 0, out, NULL),
	                 0);
	for (size_t i = 0; i < out->nports; i++)
		snprintf(res[i].ifname, sizeof(res[i].ifname), "%s",
		         out->ports[i].ifname);
	ports_applied(r, out, out->nports, res, NULL);
}

/* The MTU a port had before roced first changed it: recorded then, kept
 * while roced's MTU applies, the plan's MTU once no network-qos MTU
 * applies, forgotten when given back; a port the configuration drops
 * gets a plan that gives it back; and it survives in the state file. */
static void test_mtu_given_back(void **state)
{
	struct reconcile_result res[4] = {{.status = RECONCILE_OK}};
	char path[] = "/tmp/test_ports.XXXXXX";
	struct ports r, r2;
	struct policy p, none;
	struct plan pl;
	FILE *f;
	int fd;

	(void)state;
	load(&p);
	hw_registry(&r);
	r.netns_cookie = 77;
	res[0].mtu_before = 1500; /* swp1 was at 1500: roced set 9216 */
	apply(&r, &p, res, &pl);
	assert_int_equal(pl.nports, 2);
	plan_free(&pl);
	assert_int_equal(ports_find(&r, "swp1")->mtu_orig, 1500);
	assert_int_equal(ports_find(&r, "swp2")->mtu_orig, 0);
	assert_true(r.mtu_dirty);

	/* Someone set 1000, roced 9216 again: the first MTU stays. */
	res[0].mtu_before = 1000;
	apply(&r, &p, res, &pl);
	plan_free(&pl);
	assert_int_equal(ports_find(&r, "swp1")->mtu_orig, 1500);

	/* Kept in the state file, and read back by a new registry. */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ports_mtu_save(&r, path), 0);
	assert_false(r.mtu_dirty);
	hw_registry(&r2);
	r2.netns_cookie = 77;
	assert_int_equal(ports_mtu_load(&r2, path), 1);
	assert_int_equal(ports_find(&r2, "swp1")->mtu_orig, 1500);
	ports_free(&r2);
	/* another namespace's file is not taken */
	hw_registry(&r2);
	r2.netns_cookie = 78;
	assert_int_equal(ports_mtu_load(&r2, path), -ESTALE);
	assert_true(!ports_find(&r2, "swp1") ||
	            !ports_find(&r2, "swp1")->mtu_orig);
	ports_free(&r2);
	/* lines that do not parse are skipped */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("netns 77\nswp1 1500 junk\nswp3 99999\nswp4\n"
	      "averyveryverylongname 1500\nswp5 9000\n",
	      f);
	fclose(f);
	hw_registry(&r2);
	r2.netns_cookie = 77;
	assert_int_equal(ports_mtu_load(&r2, path), 1);
	assert_int_equal(ports_find(&r2, "swp5")->mtu_orig, 9000);
	assert_null(ports_find(&r2, "swp1"));
	ports_free(&r2);

	/* No network-qos any more: the plan gives 1500 back, and once the
	 * kernel took it the registry forgets it. */
	assert_int_equal(policy_copy(&none, &p), 0);
	none.system.network_qos[0] = '\0';
	res[0].mtu_before = 9216;
	apply(&r, &none, res, &pl);
	assert_int_equal(ports_find(&r, "swp1")->plan.dcb.mtu, 1500);
	assert_true(ports_find(&r, "swp1")->plan.dcb.mtu_restore);
	assert_int_equal(ports_find(&r, "swp2")->plan.dcb.mtu, 0);
	plan_free(&pl);
	assert_int_equal(ports_find(&r, "swp1")->mtu_orig, 0);
	assert_true(r.mtu_dirty);
	assert_int_equal(ports_mtu_save(&r, path), 0);
	assert_int_equal(access(path, F_OK), -1); /* nothing to keep */
	res[0].mtu_before = 0;
	apply(&r, &none, res, &pl);
	assert_int_equal(ports_find(&r, "swp1")->plan.dcb.mtu, 0);
	plan_free(&pl);

	/* The port dropped from the configuration: a release plan gives the
	 * MTU back, the entry stays until it did. */
	res[0].mtu_before = 1500;
	apply(&r, &p, res, &pl);
	plan_free(&pl);
	assert_int_equal(ports_find(&r, "swp1")->mtu_orig, 1500);
	policy_free(&none);
	assert_int_equal(policy_copy(&none, &p), 0);
	none.nifaces = 0; /* (the ifaces stay allocated: policy_free) */
	ports_prune(&r, &none);
	assert_non_null(ports_find(&r, "swp1"));
	assert_null(ports_find(&r, "swp2"));
	res[0].status = RECONCILE_ABSENT; /* not there: kept */
	res[0].mtu_before = 0;
	apply(&r, &none, res, &pl);
	assert_int_equal(pl.nports, 1);
	plan_free(&pl);
	assert_true(ports_find(&r, "swp1")->plan.dcb.unmanaged);
	assert_int_equal(ports_find(&r, "swp1")->plan.nqdiscs, 0);
	assert_int_equal(ports_find(&r, "swp1")->plan.dcb.mtu, 1500);
	assert_int_equal(ports_find(&r, "swp1")->mtu_orig, 1500);
	res[0].status = RECONCILE_OK;
	apply(&r, &none, res, &pl);
	plan_free(&pl);
	assert_int_equal(ports_find(&r, "swp1")->mtu_orig, 0);
	ports_prune(&r, &none);
	assert_int_equal(r.n, 0);

	/* --cleanup-on-exit: every configured port let go, the MTU given
	 * back. */
	res[0].mtu_before = 1500;
	apply(&r, &p, res, &pl);
	plan_free(&pl);
	plan_init(&pl);
	assert_int_equal(ports_release(&r, &p, &pl), 0);
	assert_int_equal(pl.nports, 2);
	assert_true(pl.ports[0].dcb.unmanaged);
	assert_int_equal(pl.ports[0].nqdiscs, 0);
	assert_int_equal(pl.ports[0].dcb.mtu, 1500);
	assert_true(pl.ports[0].dcb.mtu_restore);
	assert_int_equal(pl.ports[1].dcb.mtu, 0);
	plan_free(&pl);
	unlink(path);
	policy_free(&none);
	ports_free(&r);
	policy_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_compile_inputs),
	    cmocka_unit_test(test_compile_error_file_line),
	    cmocka_unit_test(test_applied),
	    cmocka_unit_test(test_probe_when),
	    cmocka_unit_test(test_plan_dry),
	    cmocka_unit_test(test_unplanned),
	    cmocka_unit_test(test_contested),
	    cmocka_unit_test(test_mtu_given_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
