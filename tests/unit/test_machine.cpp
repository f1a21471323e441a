// Machine records: /proc/cpuinfo and nvidia-smi read, names derived from the hardware, and
// the names --machine takes.
#include "lifebench/environment.hpp"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace lifebench {
namespace {

std::vector<GpuFacts> gpus(const std::vector<std::string>& names) {
  std::vector<GpuFacts> out;
  for (const auto& name : names)
    out.push_back({name, 80ULL << 30U, "580.159.04"});
  return out;
}

CpuFacts cpu(const std::string& model, int physical_cores) {
  return {.model = model, .logical_cores = 2 * physical_cores, .physical_cores = physical_cores};
}

TEST(Machine, NamesFromTheHardware) {
  const std::string h100 = "NVIDIA H100 80GB HBM3";
  const CpuFacts xeon = cpu("Intel(R) Xeon(R) Processor", 16);
  EXPECT_EQ(derive_machine_name(xeon, gpus({h100})), "h100-80gb-hbm3-xeon-16c");
  EXPECT_EQ(derive_machine_name(cpu("Intel(R) Xeon(R) Platinum 8480+", 64),
                                gpus({h100, h100, h100, h100})),
            "4x-h100-80gb-hbm3-xeon-64c");
  EXPECT_EQ(derive_machine_name(cpu("Intel(R) Xeon(R) Processor", 2), {}), "xeon-2c");
  EXPECT_EQ(derive_machine_name(cpu("AMD EPYC 7763 64-Core Processor", 64),
                                gpus({"NVIDIA A100-SXM4-40GB", "NVIDIA A100-SXM4-40GB"})),
            "2x-a100-sxm4-40gb-epyc-64c");
  EXPECT_EQ(derive_machine_name(cpu("12th Gen Intel(R) Core(TM) i7-12700K", 12),
                                gpus({"NVIDIA GeForce RTX 4090"})),
            "geforce-rtx-4090-core-12c");
  // Several models: each a part, in the order nvidia-smi lists them.
  EXPECT_EQ(derive_machine_name(cpu("AMD Ryzen 9 7950X 16-Core Processor", 16),
                                gpus({"NVIDIA H200", "Tesla T4", "NVIDIA H200"})),
            "2x-h200-tesla-t4-ryzen-16c");
  // What cannot be told: a CPU of no known model, cores not counted.
  EXPECT_EQ(derive_machine_name(CpuFacts{}, {}), "cpu");
  EXPECT_EQ(derive_machine_name(cpu("unknown", 4), {}), "cpu-4c");
}

TEST(Machine, DerivedNamesAreValidNames) {
  for (const auto& name :
       {derive_machine_name(cpu("Intel(R) Xeon(R) Processor", 16), gpus({"NVIDIA H100 NVL"})),
        derive_machine_name(cpu("(R)", 1), gpus({"!!"})), derive_machine_name(CpuFacts{}, {})}) {
    EXPECT_TRUE(valid_machine_name(name)) << name;
  }
}

TEST(Machine, ValidNames) {
  for (const char* name : {"a", "h100-box", "lab_3.node-07", "4x-h100", "Z"}) {
    EXPECT_TRUE(valid_machine_name(name)) << name;
  }
  const std::string longest(kMaxMachineName, 'x');
  EXPECT_TRUE(valid_machine_name(longest));
  for (const std::string& name :
       {std::string(), std::string("."), std::string(".."), std::string(".hidden"),
        std::string("-flag"), std::string("_x"), std::string("a/b"), std::string("a b"),
        std::string("caf\xc3\xa9"), longest + "x"}) {
    EXPECT_FALSE(valid_machine_name(name)) << name;
  }
}

TEST(Machine, ReadsCpuinfo) {
  // Two sockets of two cores, each core two threads: 8 logical, 4 physical.
  std::string text;
  for (int p = 0; p < 8; ++p) {
    text += "processor\t: " + std::to_string(p) + "\nvendor_id\t: GenuineIntel\n" +
            "model name\t: Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz\nphysical id\t: " +
            std::to_string(p / 4) + "\ncore id\t\t: " + std::to_string(p % 2) + "\n\n";
  }
  const CpuFacts facts = parse_cpuinfo(text);
  EXPECT_EQ(facts.model, "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz");
  EXPECT_EQ(facts.logical_cores, 8);
  EXPECT_EQ(facts.physical_cores, 4);
  // Without core ids (some ARM and virtual machines) each logical core counts as physical.
  const CpuFacts arm = parse_cpuinfo("processor\t: 0\nBogoMIPS\t: 50.00\n\nprocessor\t: 1\n");
  EXPECT_EQ(arm.model, "unknown");
  EXPECT_EQ(arm.logical_cores, 2);
  EXPECT_EQ(arm.physical_cores, 2);
  EXPECT_EQ(parse_cpuinfo("").logical_cores, 0);
}

TEST(Machine, ReadsNvidiaSmi) {
  const auto found = parse_nvidia_smi("NVIDIA H100 80GB HBM3, 81559, 580.159.04\r\n"
                                      "NVIDIA A100-SXM4-40GB, 40960, 535.54.03\n"
                                      "No devices were found\n"
                                      "NVIDIA H100, [N/A], 580.159.04\n"
                                      ", 1, 2\n");
  ASSERT_EQ(found.size(), 2U);
  EXPECT_EQ(found[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(found[0].memory_bytes, 81559ULL << 20U);
  EXPECT_EQ(found[0].driver, "580.159.04");
  EXPECT_EQ(found[1].name, "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(found[1].memory_bytes, 40960ULL << 20U);
  EXPECT_TRUE(parse_nvidia_smi("").empty());
}

} // namespace
} // namespace lifebench
