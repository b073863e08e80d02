/* The cases of test_conf.c: small config texts that must fail (or warn)
 * with a given message at a given line. Line numbers count from the first
 * line of each text; the macros below say where their lines fall. */
#include "test_conf.h"

/* A queuing policy Q whose q-default has a random-detect block: BODY
 * starts at line 5. */
#define WRED(body)                                                             \
	"policy-map = {\n"                                                     \
	"  queuing = ( { name = \"Q\"; class = (\n"                            \
	"    { name = \"c-out-8q-q-default\";\n"                               \
	"      random-detect = {\n" body " }; } ); } );\n"                     \
	"};\n"

#define WRED_WHERE                                                             \
	"random-detect of policy-map type queuing Q class c-out-8q-q-default"

/* A network-qos policy P over CLASSES: its class entry starts at line 7. */
#define NQ(entry)                                                              \
	CLASSES "policy-map = {\n"                                             \
	        "  network-qos = ( { name = \"P\"; class = (\n" entry          \
	        " ); } );\n"                                                   \
	        "};\n"

const struct bad_case test_conf_bad[] = {
    {"integer libconfig would wrap",
     NQ("    { name = \"N\";\n      mtu = 4294968512; }"), 8,
     "integer 4294968512 does not fit in 32 bits and libconfig would wrap "
     "it",
     0},
    {"negative integer libconfig would wrap",
     "priority-flow-control = {\n  fixed-restore-multiplier = -2147483649;\n"
     "};\n",
     2, "integer -2147483649 does not fit in 32 bits", 0},
    {"syntax error",
     "interface = (\n  { name = \"swp1\"; }\n  { name = \"swp2\"; }\n);\n", 3,
     "syntax error", 0},
    {"mixed array",
     "class-map = {\n  qos = ( { name = \"C\"; dscp = [26, \"ef\"]; } );\n};\n",
     2, "mismatched element type in array", 0},
    {"unknown top-level setting", "\n\ninterfaces = ();\n", 3,
     "unknown setting 'interfaces' in the top level (did you mean "
     "'interface'?)",
     0},
    {"unknown setting, no close name",
     "system-qos = {\n  service-policy = { };\n  foo = 1;\n};\n", 3,
     "unknown setting 'foo' in system-qos, expected one of: "
     "service-policy",
     0},
    {"misspelt queue setting",
     "policy-map = {\n"
     "  queuing = ( { name = \"Q\"; class = (\n"
     "    { name = \"c-out-8q-q-default\";\n"
     "      bandwith-remaining-percent = 100; } ); } );\n"
     "};\n",
     4,
     "unknown setting 'bandwith-remaining-percent' in policy-map type "
     "queuing Q class c-out-8q-q-default (did you mean "
     "'bandwidth-remaining-percent'?)",
     0},
    {"string for an integer", NQ("    { name = \"N\";\n mtu = \"9216\"; }"), 8,
     "mtu in policy-map type network-qos P class N must be an integer, not "
     "a string",
     0},
    {"float for an integer", NQ("    { name = \"N\"; mtu = 9216.0; }"), 7,
     "must be an integer, not a float", 0},
    {"group for a list", "interface = { name = \"swp1\"; };\n", 1,
     "interface in the top level must be a list ( { ... }, ... ), not a "
     "group",
     0},
    {"group expected", "priority-flow-control = {\n  watch-dog = 100;\n};\n", 2,
     "watch-dog in priority-flow-control must be a group { ... }, not an "
     "integer",
     0},
    {"list entry not a group",
     "class-map = {\n  qos = ( \"ROCE_CLASS\" );\n};\n", 2,
     "each entry of qos in class-map must be a group", 0},
    {"entry without a name",
     "class-map = {\n  network-qos = (\n    { qos-group = 3; }\n  );\n};\n", 3,
     "class-map type network-qos entry has no name", 0},
    {"empty name",
     "class-map = {\n  network-qos = (\n    { name = \"\"; }\n  );\n};\n", 3,
     "class-map type network-qos entry has an empty name", 0},
    {"name too long",
     "interface = (\n  { name = \"abcdefghijklmnopq\"; }\n);\n", 2,
     "name 'abcdefghijklmnopq' in interface is too long, at most 15 "
     "characters",
     0},
    {"invalid policy name",
     "policy-map = {\n  qos = (\n    { name = \"ROCE POLICY\"; }\n  );\n};\n",
     3,
     "invalid policy-map type qos name 'ROCE POLICY', expected letters, "
     "digits",
     0},
    {"invalid match",
     "class-map = {\n  qos = ( { name = \"C\";\n    match = \"some\"; } "
     ");\n};\n",
     3,
     "invalid match 'some' in class-map type qos C, expected \"all\" or "
     "\"any\"",
     0},
    {"cos out of range",
     "class-map = {\n  qos = ( { name = \"C\"; cos = 8; } );\n};\n", 2,
     "cos 8 in class-map type qos C is out of range, expected 0-7", 0},
    {"negative cos",
     "class-map = {\n  qos = ( { name = \"C\"; cos = -1; } );\n};\n", 2,
     "cos -1 in class-map type qos C is out of range, expected 0-7", 0},
    {"cos array element out of range",
     "class-map = {\n  qos = ( { name = \"C\"; cos = [ 3,\n    9 ]; } );\n};\n",
     3, "cos 9 in class-map type qos C is out of range, expected 0-7", 0},
    {"dscp out of range",
     "class-map = {\n  qos = ( { name = \"C\"; dscp = \"64\"; } );\n};\n", 2,
     "dscp '64' in class-map type qos C: invalid value '64', expected a "
     "DSCP name or 0-63",
     0},
    {"unknown dscp name",
     "class-map = {\n  qos = ( { name = \"C\"; dscp = \"af99\"; } );\n};\n", 2,
     "invalid value 'af99'", 0},
    {"qos-group out of range",
     "class-map = {\n  network-qos = ( { name = \"N\"; qos-group = \"2,9\"; "
     "} );\n};\n",
     2,
     "qos-group '2,9' in class-map type network-qos N: invalid value '9', "
     "expected 0-7",
     0},
    {"set-qos-group out of range",
     CLASSES "policy-map = {\n  qos = ( { name = \"P\"; class = (\n"
             "    { name = \"C\";\n      set-qos-group = 8; } ); } );\n};\n",
     8,
     "set-qos-group 8 in policy-map type qos P class C is out of range, "
     "expected 0-7",
     0},
    {"undefined qos class",
     CLASSES "policy-map = {\n  qos = ( { name = \"P\"; class = (\n"
             "    { name = \"ROCE_CLAS\"; set-qos-group = 3; } ); } );\n};\n",
     7,
     "class ROCE_CLAS in policy-map type qos P is not defined (no "
     "class-map type qos ROCE_CLAS)",
     0},
    {"undefined network-qos class", NQ("    { name = \"NN\"; mtu = 9216; }"), 7,
     "class NN in policy-map type network-qos P is not defined (no "
     "class-map type network-qos NN)",
     0},
    {"undefined interface policy",
     "interface = (\n  { name = \"swp1\";\n    service-policy = { qos-input = "
     "\"NOPE\"; }; }\n);\n",
     3,
     "service-policy type qos input of interface swp1: policy-map type qos "
     "NOPE is not defined",
     0},
    {"interface policy of the wrong kind",
     CLASSES "policy-map = {\n  qos = ( { name = \"P\"; class = ( { name = "
             "\"C\"; set-qos-group = 3; } ); } );\n};\n"
             "interface = (\n  { name = \"swp1\"; service-policy = { "
             "queuing-output = \"P\"; }; }\n);\n",
     9,
     "policy-map type queuing P is not defined (P is a policy-map type "
     "qos)",
     0},
    {"undefined system network-qos",
     "system-qos = {\n  service-policy = {\n    network-qos = \"MISSING\";\n"
     "  };\n};\n",
     3,
     "service-policy type network-qos of system qos: policy-map type "
     "network-qos MISSING is not defined",
     0},
    {"bandwidth above 100",
     "policy-map = {\n  queuing = ( { name = \"Q\"; class = (\n"
     "    { name = \"c-out-8q-q-default\"; bandwidth-remaining-percent = 101; "
     "} ); } );\n};\n",
     3,
     "bandwidth-remaining-percent 101 in policy-map type queuing Q class "
     "c-out-8q-q-default is out of range, expected 0-100",
     2},
    {"strict queue with bandwidth",
     "policy-map = {\n  queuing = ( { name = \"Q\"; class = (\n"
     "    { name = \"c-out-8q-q7\"; priority-level = 1;\n"
     "      bandwidth-remaining-percent = 10; },\n"
     "    { name = \"c-out-8q-q-default\"; bandwidth-remaining-percent = 100; "
     "} ); } );\n};\n",
     4,
     "queue c-out-8q-q7 of policy-map type queuing Q is strict (priority "
     "level 1) and also has bandwidth remaining percent",
     0},
    {"priority level 0",
     "policy-map = {\n  queuing = ( { name = \"Q\"; class = (\n"
     "    { name = \"c-out-8q-q7\"; priority-level = 0; } ); } );\n};\n",
     3,
     "priority-level 0 in policy-map type queuing Q class c-out-8q-q7 is "
     "out of range, expected 1-7",
     0},
    {"unknown queue",
     "policy-map = {\n  queuing = ( { name = \"Q\"; class = (\n"
     "    { name = \"c-out-8q-q8\"; } ); } );\n};\n",
     3,
     "unknown queue 'c-out-8q-q8' in policy-map type queuing Q, expected "
     "c-out-8q-q1 .. c-out-8q-q7 or c-out-8q-q-default",
     0},
    {"queue listed twice",
     "policy-map = {\n  queuing = ( { name = \"Q\"; class = (\n"
     "    { name = \"c-out-8q-q-default\"; bandwidth-remaining-percent = 100; "
     "},\n    { name = \"c-out-8q-q0\"; } ); } );\n};\n",
     4,
     "queue c-out-8q-q0 is listed twice in policy-map type queuing Q "
     "(first at line 3)",
     0},
    {"min above max",
     WRED("        minimum-threshold = \"3000 kbytes\";\n"
          "        maximum-threshold = \"150 kbytes\";"),
     5,
     "minimum-threshold 3000 kbytes of " WRED_WHERE
     " is above maximum-threshold 150 kbytes",
     0},
    {"min 0",
     WRED("        minimum-threshold = 0;\n"
          "        maximum-threshold = \"150 kbytes\";"),
     5, "minimum-threshold of " WRED_WHERE " is 0, expected at least 1 byte",
     0},
    {"max 0",
     WRED("        minimum-threshold = \"0 kbytes\";\n"
          "        maximum-threshold = \"0 mbytes\";"),
     6, "maximum-threshold of " WRED_WHERE " is 0", 2},
    {"threshold in packets",
     WRED("        minimum-threshold = \"100 packets\";\n"
          "        maximum-threshold = \"150 kbytes\";"),
     5, "is in packets; roced works in bytes", 0},
    {"threshold unit",
     WRED("        minimum-threshold = \"150 kbytes\";\n"
          "        maximum-threshold = \"3000 kb\";"),
     6,
     "maximum-threshold in " WRED_WHERE
     ": invalid threshold '3000 kb', expected 'N bytes', 'N kbytes' or 'N "
     "mbytes'",
     0},
    {"missing threshold", WRED("        minimum-threshold = 1000;"), 4,
     WRED_WHERE " has no maximum-threshold", 0},
    {"drop-probability above 100",
     WRED("        minimum-threshold = 1000; maximum-threshold = 2000;\n\n"
          "        drop-probability = 101;"),
     7,
     "drop-probability 101 in " WRED_WHERE " is out of range, expected 0-100",
     0},
    {"max at 2 GiB with weight 0",
     WRED("        minimum-threshold = \"150 kbytes\";\n"
          "        maximum-threshold = \"2048 mbytes\";"),
     6,
     "maximum-threshold 2048 mbytes of " WRED_WHERE
     " is more than the kernel's RED holds with weight 0: at most "
     "2147483647 bytes (2^31 - 1 bytes",
     0},
    {"max beyond 2^(31 - weight)",
     WRED("        minimum-threshold = \"150 kbytes\";\n"
          "        maximum-threshold = \"3000 kbytes\";\n"
          "        weight = 10;"),
     6,
     "maximum-threshold 3000 kbytes of " WRED_WHERE
     " is more than the kernel's RED holds with weight 10: at most "
     "2097151 bytes (2^21 - 1 bytes",
     0},
    {"weight above 15",
     WRED("        minimum-threshold = 1000; maximum-threshold = 2000;\n"
          "        weight = 16;"),
     6, "weight 16 in " WRED_WHERE " is out of range, expected 0-15", 0},
    {"bad boolean",
     WRED("        minimum-threshold = 1000; maximum-threshold = 2000;\n"
          "        ecn = \"yes\";"),
     6,
     "invalid ecn 'yes' in " WRED_WHERE
     ", expected true, false, \"on\" or \"off\"",
     0},
    {"pause pfc-cos matches no class",
     NQ("    { name = \"N\";\n      pause-pfc-cos = 4; }"), 8,
     "pause pfc-cos 4 in policy-map type network-qos P class N matches no "
     "class: class-map type network-qos N matches qos-group 3",
     0},
    {"pause on the default class",
     NQ("    { name = \"c-8q-nq-default\"; pause-pfc-cos = 3; }"), 7,
     "pause pfc-cos on c-8q-nq-default in policy-map type network-qos P: "
     "the default class cannot be no-drop",
     0},
    {"mtu too large", NQ("    { name = \"c-8q-nq-default\"; mtu = 9217; }"), 7,
     "mtu 9217 in policy-map type network-qos P class c-8q-nq-default is "
     "out of range, expected 576-9216",
     0},
    {"mtu too small", NQ("    { name = \"N\"; mtu = 500; }"), 7,
     "mtu 500 in policy-map type network-qos P class N is out of range, "
     "expected 576-9216",
     0},
    {"mtu 0", NQ("    { name = \"N\"; mtu = 0; }"), 7,
     "mtu 0 in policy-map type network-qos P class N is out of range", 0},
    {"watchdog interval too short",
     "priority-flow-control = {\n  watch-dog = {\n    interval = 50;\n  };\n"
     "};\n",
     3,
     "interval 50 in watch-dog of priority-flow-control is out of range, "
     "expected 100-1000",
     0},
    {"watchdog interval too long",
     "priority-flow-control = {\n  watch-dog = {\n    interval = 2000;\n  };\n"
     "};\n",
     3, "interval 2000 in watch-dog of priority-flow-control is out of range",
     0},
    {"detection shorter than a poll",
     "priority-flow-control = {\n  watch-dog = {\n    interval = 200;\n"
     "    shutdown-multiplier = 0;\n  };\n};\n",
     4,
     "watch-dog detection time (interval 200 ms x shutdown-multiplier 0 = 0 "
     "ms) is shorter than the poll interval 200 ms",
     0},
    {"restore multiplier too large",
     "priority-flow-control = {\n  auto-restore-multiplier = 101;\n};\n", 2,
     "auto-restore-multiplier 101 in priority-flow-control is out of range, "
     "expected 0-100",
     0},
    {"a port's detection multiplier too large",
     "interface = ( { name = \"swp1\";\n"
     "  priority-flow-control = { shutdown-multiplier = 101; }; } );\n",
     2,
     "shutdown-multiplier 101 in priority-flow-control of interface swp1 "
     "is out of range, expected 1-100",
     0},
    {"a port's detection multiplier of 0",
     "interface = ( { name = \"swp1\";\n"
     "  priority-flow-control = { shutdown-multiplier = 0; }; } );\n",
     2,
     "shutdown-multiplier 0 in priority-flow-control of interface swp1 is "
     "out of range, expected 1-100",
     0},
    {"watchdog boolean",
     "priority-flow-control = {\n  watch-dog-interval = \"yes\";\n};\n", 2,
     "invalid watch-dog-interval 'yes' in priority-flow-control, expected "
     "true, false",
     0},
    {"interface twice",
     "interface = (\n  { name = \"swp1\"; },\n  { name = \"swp1\"; }\n);\n", 3,
     "interface swp1 is configured twice (first at line 2)", 0},
    {"alias twice, other case",
     "interface = (\n  { name = \"swp1\"; alias = \"Ethernet1/1\"; },\n"
     "  { name = \"swp2\";\n    alias = \"ethernet1/1\"; }\n);\n",
     4,
     "alias ethernet1/1 of interface swp2 is already the alias of interface "
     "swp1 (line 2)",
     0},
    {"alias naming another interface",
     "interface = (\n  { name = \"swp1\"; },\n  { name = \"swp2\"; alias = "
     "\"SWP1\"; }\n);\n",
     3, "alias SWP1 of interface swp2 names interface swp1", 0},
    /* The clash with the earliest port is the one told, whichever kind
     * (the check sorts the names rather than walking every pair). */
    {"alias naming an earlier interface than its twin",
     "interface = (\n  { name = \"swp1\"; },\n  { name = \"swp3\"; },\n"
     "  { name = \"swp3\"; alias = \"Swp1\"; }\n);\n",
     4, "alias Swp1 of interface swp3 names interface swp1 (line 2)", 0},
    {"alias naming a later interface",
     "interface = (\n  { name = \"swp2\"; alias = \"SWP9\"; },\n"
     "  { name = \"swp9\"; }\n);\n",
     2, "alias SWP9 of interface swp2 names interface swp9 (line 3)", 0},
    /* Strings are data: a control or format character in any of them
     * is refused at load, and quoted escaped (diag_format). A newline in
     * an alias would forge a row of show interface
     * priority-flow-control. */
    {"newline in an alias",
     "interface = (\n  { name = \"swp1\";\n    alias = \"Eth1\\nswp9  on\"; "
     "}\n);\n",
     3,
     "alias 'Eth1\\x0aswp9  on' in interface swp1 holds a control or format "
     "character",
     0},
    {"bidi override in an alias",
     "interface = (\n  { name = \"swp1\"; alias = \"Eth\xe2\x80\xae"
     "1\"; }\n);\n",
     2, "alias 'Eth\\xe2\\x80\\xae1' in interface swp1 holds a control", 0},
    {"Arabic letter mark in an alias",
     "interface = (\n  { name = \"swp1\"; alias = \"E\xd8\x9c"
     "1\"; }\n);\n",
     2, "alias 'E\\xd8\\x9c1' in interface swp1 holds a control", 0},
    {"escape in a class-map name",
     "class-map = {\n  qos = ( { name = \"C\\x1b[2J\"; dscp = 26; } );\n};\n",
     2, "name 'C\\x1b[2J' in", 0},
    {"invalid interface name", "interface = (\n  { name = \"eth/0\"; }\n);\n",
     2, "invalid interface name 'eth/0'", 0},
    {"pfc mode",
     "interface = (\n  { name = \"swp1\";\n    priority-flow-control = { mode "
     "= \"enabled\"; }; }\n);\n",
     3,
     "invalid priority-flow-control mode 'enabled' in interface swp1, "
     "expected auto, on or off",
     0},
    {"class-map defined twice",
     "class-map = {\n  qos = ( { name = \"C\"; cos = 3; },\n    { name = "
     "\"C\"; dscp = 26; } );\n};\n",
     3, "class-map type qos C is defined twice (first at line 2)", 0},
    {"queuing policy defined twice",
     "policy-map = {\n  queuing = ( { name = \"Q\"; },\n    { name = \"Q\"; } "
     ");\n};\n",
     3, "policy-map type queuing Q is defined twice (first at line 2)", 0},
    {"class listed twice in a policy",
     CLASSES "policy-map = {\n  qos = ( { name = \"P\"; class = (\n"
             "    { name = \"C\"; set-qos-group = 3; },\n"
             "    { name = \"C\"; set-qos-group = 4; } ); } );\n};\n",
     8, "class C is listed twice in policy-map type qos P (first at line 7)",
     0},
    {"built-in class redefined",
     "class-map = {\n  network-qos = ( { name = \"c-8q-nq-default\"; } );\n"
     "};\n",
     2, "c-8q-nq-default is built in and cannot be defined", 0},
    /* the metrics textfile */
    {"metrics textfile relative",
     "metrics = {\n  textfile = \"roced.prom\";\n};\n", 2,
     "metrics textfile 'roced.prom' is not an absolute path", 0},
    {"metrics textfile not .prom",
     "metrics = {\n  textfile = \"/var/lib/roced.txt\";\n};\n", 2,
     "metrics textfile '/var/lib/roced.txt' must be a file name ending in "
     "'.prom'",
     0},
    {"metrics textfile a bare .prom",
     "metrics = {\n  textfile = \"/var/lib/.prom\";\n};\n", 2,
     "must be a file name ending in '.prom'", 0},
    {"metrics interval 0",
     "metrics = {\n  textfile = \"/r.prom\";\n  interval = 0;\n};\n", 3,
     "metrics interval 0 is out of range, expected 1-3600 seconds", 0},
    {"metrics interval too long",
     "metrics = { textfile = \"/r.prom\";\n  interval = 3601; };\n", 2,
     "metrics interval 3601 is out of range", 0},
    {"metrics unknown key", "metrics = {\n  port = 9100;\n};\n", 2, "port", 0},
    {"metrics not a group", "metrics = \"/r.prom\";\n", 1, "metrics", 0},
};

const size_t test_conf_nbad = sizeof(test_conf_bad) / sizeof(test_conf_bad[0]);

const struct bad_case test_conf_warn[] = {
    {"bandwidth adds up to 90",
     "policy-map = {\n  queuing = (\n    { name = \"Q\";\n      class = (\n"
     "        { name = \"c-out-8q-q3\"; bandwidth-remaining-percent = 40; },\n"
     "        { name = \"c-out-8q-q-default\"; bandwidth-remaining-percent = "
     "50; }\n      ); }\n  );\n};\n",
     3,
     "bandwidth remaining percent of policy-map Q adds up to 90: the rest "
     "is shared in proportion to the shares, as on NX-OS",
     0},
    {"no qos policy sets the paused group",
     NQ("    { name = \"N\";\n      pause-pfc-cos = 3; }") "system-qos = { "
                                                           "service-policy = { "
                                                           "network-qos = "
                                                           "\"P\"; }; };\n",
     8,
     "pause pfc-cos 3 in policy-map type network-qos P: no policy-map type "
     "qos sets qos-group 3",
     0},
    {"queues never restored",
     "priority-flow-control = {\n  auto-restore-multiplier = 0;\n"
     "  fixed-restore-multiplier = 0;\n};\n",
     2, "stays shut until it is cleared", 0},
    {"network-qos policy not attached", NQ("    { name = \"N\"; mtu = 9216; }"),
     6,
     "policy-map type network-qos P is defined but system-qos attaches no "
     "network-qos policy",
     0},
};

const size_t test_conf_nwarn =
    sizeof(test_conf_warn) / sizeof(test_conf_warn[0]);
