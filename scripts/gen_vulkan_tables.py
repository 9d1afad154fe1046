#!/usr/bin/env python3
"""Generates Kiln's Vulkan tables from the registry (vk.xml) at build time.

Outputs (into OUTDIR):
  kiln_entrypoints.h    weak declarations `kiln_<Name>` for every Vulkan command; a command that
                        no file of icd/ defines stays NULL, so GetProcAddr can answer NULL for it.
  kiln_entrypoints.cpp  the name -> function table with each command's level and the core version
                        or extensions that provide it.
  kiln_struct_types.h   kiln::stype_of<T>: the VkStructureType of every struct with an sType, for
                        walking pNext chains by type.

Only the Vulkan (not Vulkan SC) API is considered; provisional extensions and platforms other
than the window systems Kiln targets are guarded by their `protect` macro.
"""
import sys
import xml.etree.ElementTree as ET

# Window systems whose headers Kiln may compile against; other platforms' commands are skipped.
KNOWN_PLATFORMS = {"xlib", "xcb", "wayland"}


def api_ok(elem):
    api = elem.get("api")
    return api is None or "vulkan" in api.split(",")


def load(xml_path):
    root = ET.parse(xml_path).getroot()
    platforms = {p.get("name"): p.get("protect") for p in root.find("platforms")}

    commands = {}   # name -> dict(params=[types], alias=name|None)
    for cmd in root.find("commands").findall("command"):
        if not api_ok(cmd):
            continue
        if cmd.get("alias"):
            commands[cmd.get("name")] = {"alias": cmd.get("alias")}
            continue
        proto = cmd.find("proto")
        name = proto.find("name").text
        params = [p.find("type").text for p in cmd.findall("param") if api_ok(p)]
        commands[name] = {"alias": None, "params": params}

    provided = {}   # command -> {"version": str|None, "extensions": [..], "protect": str|None}
    for feat in root.findall("feature"):
        if not api_ok(feat):
            continue
        for req in feat.findall("require"):
            for c in req.findall("command"):
                provided.setdefault(c.get("name"), {"version": feat.get("name"), "extensions": [], "protect": None})
    for ext in root.find("extensions").findall("extension"):
        supported = ext.get("supported", "").split(",")
        if "vulkan" not in supported or ext.get("provisional") == "true":
            continue
        platform = ext.get("platform")
        if platform and platform not in KNOWN_PLATFORMS:
            continue
        protect = platforms.get(platform) if platform else None
        for req in ext.findall("require"):
            if not api_ok(req):
                continue
            for c in req.findall("command"):
                entry = provided.setdefault(c.get("name"), {"version": None, "extensions": [], "protect": protect})
                if ext.get("name") not in entry["extensions"]:
                    entry["extensions"].append(ext.get("name"))

    struct_types = []
    for t in root.find("types").findall("type"):
        if t.get("category") != "struct" or t.get("alias") or not api_ok(t):
            continue
        for m in t.findall("member"):
            if m.find("name").text == "sType" and m.get("values"):
                members = [mm.find("name").text for mm in t.findall("member") if api_ok(mm)]
                struct_types.append((t.get("name"), m.get("values"), t.get("structextends") or "", members))
    # struct -> protect macro (structs of guarded extensions must be guarded too)
    struct_protect = {}
    for ext in root.find("extensions").findall("extension"):
        platform = ext.get("platform")
        guard = platforms.get(platform) if platform else None
        if ext.get("provisional") == "true":
            guard = "VK_ENABLE_BETA_EXTENSIONS"
        if "vulkan" not in ext.get("supported", "").split(","):
            guard = "KILN_NEVER_DEFINED"
        if guard:
            for req in ext.findall("require"):
                for ty in req.findall("type"):
                    struct_protect[ty.get("name")] = guard
    return commands, provided, struct_types, struct_protect


def level_of(commands, name):
    info = commands[name]
    while info["alias"]:
        info = commands[info["alias"]]
    first = info["params"][0] if info["params"] else None
    if name in ("vkGetInstanceProcAddr",):
        return "Global"
    if first in ("VkPhysicalDevice",):
        return "PhysicalDevice"
    if first in ("VkInstance",):
        return "Instance"
    if first in ("VkDevice", "VkQueue", "VkCommandBuffer"):
        return "Device"
    return "Global"


def target_of(commands, name):
    while commands[name]["alias"]:
        name = commands[name]["alias"]
    return name


def main():
    xml_path, outdir = sys.argv[1], sys.argv[2]
    commands, provided, struct_types, struct_protect = load(xml_path)
    names = sorted(n for n in commands if n in provided)

    def guard_open(p):
        return f"#ifdef {p}\n" if p else ""

    def guard_close(p):
        return "#endif\n" if p else ""

    h = ["// Generated by scripts/gen_vulkan_tables.py from vk.xml. Do not edit.",
         "#pragma once", "#include <vulkan/vulkan.h>", "#include <type_traits>", "",
         "// Every Vulkan command Kiln may implement, as a weak symbol: icd/ files define the ones",
         "// that exist; the others stay NULL and GetProcAddr reports them as absent.",
         'extern "C" {']
    for n in names:
        if commands[n]["alias"]:
            continue
        p = provided[n]["protect"]
        h.append(f"{guard_open(p)}__attribute__((weak)) std::remove_pointer_t<PFN_{n}> kiln_{n[2:]};\n{guard_close(p)}".rstrip("\n"))
    h.append("}")
    open(f"{outdir}/kiln_entrypoints.h", "w").write("\n".join(h) + "\n")

    c = ["// Generated by scripts/gen_vulkan_tables.py from vk.xml. Do not edit.",
         '#include "kiln_entrypoints.h"', '#include "icd/entrypoint_table.h"', "",
         "namespace kiln {", "const EntrypointInfo kEntrypoints[] = {"]
    for n in names:
        p = provided[n]["protect"]
        ver = provided[n]["version"]
        version = {"VK_VERSION_1_0": "VK_API_VERSION_1_0", "VK_VERSION_1_1": "VK_API_VERSION_1_1",
                   "VK_VERSION_1_2": "VK_API_VERSION_1_2", "VK_VERSION_1_3": "VK_API_VERSION_1_3"}.get(ver, "0")
        exts = provided[n]["extensions"]
        ext_list = "{" + ", ".join(f'"{e}"' for e in exts[:3]) + "}"
        c.append(f"{guard_open(p)}    {{\"{n}\", reinterpret_cast<PFN_vkVoidFunction>(&kiln_{target_of(commands, n)[2:]}), "
                 f"EntrypointLevel::{level_of(commands, n)}, {version}, {ext_list}}},\n{guard_close(p)}".rstrip("\n"))
    c += ["};", "const size_t kEntrypointCount = sizeof(kEntrypoints) / sizeof(kEntrypoints[0]);", "}  // namespace kiln"]
    open(f"{outdir}/kiln_entrypoints.cpp", "w").write("\n".join(c) + "\n")

    s = ["// Generated by scripts/gen_vulkan_tables.py from vk.xml. Do not edit.",
         "#pragma once", "#include <vulkan/vulkan.h>", "#include <cstddef>", "#include <cstring>", "", "namespace kiln {",
         "// The VkStructureType that goes with a Vulkan struct type, for typed pNext walking.",
         "template <typename T> inline constexpr VkStructureType stype_of = VK_STRUCTURE_TYPE_MAX_ENUM;"]
    for name, value, _, _members in struct_types:
        p = struct_protect.get(name)
        if p == "KILN_NEVER_DEFINED":
            continue
        s.append(f"{guard_open(p)}template <> inline constexpr VkStructureType stype_of<{name}> = {value};\n{guard_close(p)}".rstrip("\n"))
    s += ["",
          "// Bytes up to the end of the last member of the feature struct (one that extends",
          "// VkPhysicalDeviceFeatures2) with this sType, or 0. Feature structs hold only VkBool32 members",
          "// after sType/pNext, so this says how many there are (trailing padding excluded).",
          "inline size_t feature_struct_size(VkStructureType type) {",
          "  switch (type) {"]
    for name, value, extends, members in struct_types:
        if "VkPhysicalDeviceFeatures2" not in extends.split(","):
            continue
        p = struct_protect.get(name)
        if p == "KILN_NEVER_DEFINED":
            continue
        s.append(f"{guard_open(p)}    case {value}: return offsetof({name}, {members[-1]}) + sizeof(VkBool32);\n{guard_close(p)}".rstrip("\n"))
    s += ["    default: return 0;", "  }", "}"]
    s += promoted_copier(struct_types, struct_protect, "Features", "features")
    s += promoted_copier(struct_types, struct_protect, "Properties", "properties")
    s += ["}  // namespace kiln"]
    open(f"{outdir}/kiln_struct_types.h", "w").write("\n".join(s) + "\n")


def promoted_copier(struct_types, struct_protect, kind, noun):
    """C++ for copy_promoted_<noun>(): fills an extension's feature/property struct whose every
    member was promoted into VkPhysicalDeviceVulkan1{1,2,3}<kind> from those core structs. The
    subgroup properties are the one struct whose promoted members gained a prefix
    (supportedStages -> subgroupSupportedStages)."""
    core_names = [f"VkPhysicalDeviceVulkan{v}{kind}" for v in ("11", "12", "13")]
    core_members = {}
    for name, _, _, members in struct_types:
        if name in core_names:
            for m in members[2:]:
                core_members[m] = core_names.index(name)
    params = ", ".join(f"const {n}& v{v}" for n, v in zip(core_names, ("11", "12", "13")))
    out = ["",
           f"// Fills `s` if it is an extension {noun} struct promoted into the core 1.1/1.2/1.3 structs",
           f"// given, member by member (sType and pNext kept); false for any other struct.",
           f"inline bool copy_promoted_{noun}(VkBaseOutStructure* s, {params}) {{",
           "  switch (s->sType) {"]
    for name, value, extends, members in struct_types:
        if f"VkPhysicalDevice{kind}2" not in extends.split(",") or name in core_names:
            continue
        if struct_protect.get(name) == "KILN_NEVER_DEFINED":
            continue
        sources = []
        for m in members[2:]:
            for candidate in (m, "subgroup" + m[0].upper() + m[1:]):
                if candidate in core_members:
                    sources.append((m, f"v1{core_members[candidate] + 1}.{candidate}"))
                    break
        if not members[2:] or len(sources) != len(members[2:]):
            continue
        p = struct_protect.get(name)
        out.append(f"{guard_open(p)}    case {value}: {{".replace("\n", ""))
        out.append(f"      auto* d = reinterpret_cast<{name}*>(s);")
        for m, src in sources:
            out.append(f"      static_assert(sizeof(d->{m}) == sizeof({src}));")
            out.append(f"      memcpy(&d->{m}, &{src}, sizeof(d->{m}));")
        out.append("      return true;")
        out.append("    }" + (f"\n{guard_close(p)}".rstrip("\n") if p else ""))
    out += ["    default: return false;", "  }", "}"]
    return out


def guard_open(p):
    return f"#ifdef {p}\n" if p else ""


def guard_close(p):
    return "#endif\n" if p else ""


if __name__ == "__main__":
    main()
