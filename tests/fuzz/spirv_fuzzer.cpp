// libFuzzer target: SPIR-V from the fuzzer through Kiln's vkCreateShaderModule,
// vkCreateComputePipelines and, for modules that can safely run, a one-workgroup dispatch.
//
// Kiln is called through its ICD entry points (vk_icdGetInstanceProcAddr) without the loader or
// the validation layer: the point is to hand the driver what a layer would reject. One instance,
// device, queue, buffers and descriptor set live for the whole run; each input makes and destroys
// its own module and pipeline.
//
// What a crash means: Kiln must survive any bytes at vkCreateShaderModule and any module at
// pipeline creation (invalid SPIR-V fails with VK_ERROR_UNKNOWN), and must run any valid module
// whose resources match the pipeline layout. Dispatches are limited to what a correct application
// could do (see dispatchable()), so that a crash is Kiln's bug and not the harness's misuse:
// set 0 bindings 0..3 storage buffers (robustBufferAccess on), no device addresses, no loops
// (a shader that never ends would hang until the watchdog of issue 21 exists), a workgroup within
// the limits.
//
// Structure-aware mutation (spirv_mutator.h) keeps the header and the word counts consistent;
// one input in eight goes to libFuzzer's own byte mutations instead, to reach the framing errors.
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "spirv_mutator.h"

extern "C" VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance, const char* name);
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

constexpr uint32_t kBindings = 4;
constexpr VkDeviceSize kBufferBytes = 64 * 1024;

[[noreturn]] void fail(const char* what, VkResult result) {
  fprintf(stderr, "kiln_spirv_fuzzer: %s failed (%d)\n", what, result);
  abort();
}

#define KILN_FUZZ_FUNCTIONS(X)                                                                           \
  X(CreateInstance) X(DestroyInstance) X(EnumeratePhysicalDevices) X(GetPhysicalDeviceFeatures2)         \
  X(GetPhysicalDeviceProperties) X(GetPhysicalDeviceMemoryProperties) X(CreateDevice) X(DestroyDevice)   \
  X(GetDeviceQueue) X(CreateShaderModule) X(DestroyShaderModule) X(CreateComputePipelines)               \
  X(DestroyPipeline) X(CreateDescriptorSetLayout) X(CreatePipelineLayout) X(CreateBuffer)                \
  X(GetBufferMemoryRequirements) X(AllocateMemory) X(BindBufferMemory) X(CreateDescriptorPool)           \
  X(AllocateDescriptorSets) X(UpdateDescriptorSets) X(CreateCommandPool) X(AllocateCommandBuffers)       \
  X(ResetCommandPool) X(BeginCommandBuffer) X(EndCommandBuffer) X(CmdBindPipeline)                       \
  X(CmdBindDescriptorSets) X(CmdPushConstants) X(CmdDispatch) X(QueueSubmit) X(CreateFence)              \
  X(WaitForFences) X(ResetFences)

struct Kiln {
#define KILN_FUZZ_MEMBER(name) PFN_vk##name name = nullptr;
  KILN_FUZZ_FUNCTIONS(KILN_FUZZ_MEMBER)
#undef KILN_FUZZ_MEMBER
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  // Kept (not destroyed: they live until exit) so that LeakSanitizer sees them reachable.
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkBuffer buffers[kBindings] = {};
  VkDeviceMemory memories[kBindings] = {};

  void load(VkInstance for_instance) {
#define KILN_FUZZ_LOAD(name) \
  if (!name) name = reinterpret_cast<PFN_vk##name>(vk_icdGetInstanceProcAddr(for_instance, "vk" #name));
    KILN_FUZZ_FUNCTIONS(KILN_FUZZ_LOAD)
#undef KILN_FUZZ_LOAD
  }

  void create() {
    load(VK_NULL_HANDLE);
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instance_info.pApplicationInfo = &app;
    check(CreateInstance(&instance_info, nullptr, &instance), "vkCreateInstance");
    load(instance);
    uint32_t count = 1;
    const VkResult enumerated = EnumeratePhysicalDevices(instance, &count, &physical_device);
    if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || count == 0) fail("vkEnumeratePhysicalDevices", enumerated);
    GetPhysicalDeviceProperties(physical_device, &properties);

    // Every feature Kiln reports, so that any capability a mutated module declares may compile.
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
    VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
    GetPhysicalDeviceFeatures2(physical_device, &features);
    features.features.robustBufferAccess = VK_TRUE;  // fuzzed indices stay inside the buffers
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue_info.queueFamilyIndex = 0;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    check(CreateDevice(physical_device, &device_info, nullptr, &device), "vkCreateDevice");
    GetDeviceQueue(device, 0, 0, &queue);

    VkDescriptorSetLayoutBinding bindings[kBindings];
    for (uint32_t i = 0; i < kBindings; ++i)
      bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo set_layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_layout_info.bindingCount = kBindings;
    set_layout_info.pBindings = bindings;
    check(CreateDescriptorSetLayout(device, &set_layout_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
    VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, properties.limits.maxPushConstantsSize};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &push;
    check(CreatePipelineLayout(device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");

    VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kBindings};
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &pool_size;
    check(CreateDescriptorPool(device, &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    set_info.descriptorPool = pool;
    set_info.descriptorSetCount = 1;
    set_info.pSetLayouts = &set_layout;
    check(AllocateDescriptorSets(device, &set_info, &set), "vkAllocateDescriptorSets");

    VkPhysicalDeviceMemoryProperties memory_properties;
    GetPhysicalDeviceMemoryProperties(physical_device, &memory_properties);
    VkDescriptorBufferInfo buffer_infos[kBindings];
    VkWriteDescriptorSet writes[kBindings];
    for (uint32_t i = 0; i < kBindings; ++i) {
      VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      buffer_info.size = kBufferBytes;
      buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
      VkBuffer& buffer = buffers[i];
      check(CreateBuffer(device, &buffer_info, nullptr, &buffer), "vkCreateBuffer");
      VkMemoryRequirements requirements;
      GetBufferMemoryRequirements(device, buffer, &requirements);
      VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      allocate.allocationSize = requirements.size;
      allocate.memoryTypeIndex = static_cast<uint32_t>(__builtin_ctz(requirements.memoryTypeBits));
      VkDeviceMemory& memory = memories[i];
      check(AllocateMemory(device, &allocate, nullptr, &memory), "vkAllocateMemory");
      check(BindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
      buffer_infos[i] = {buffer, 0, VK_WHOLE_SIZE};
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstSet = set;
      writes[i].dstBinding = i;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &buffer_infos[i];
    }
    UpdateDescriptorSets(device, kBindings, writes, 0, nullptr);

    VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    check(CreateCommandPool(device, &command_pool_info, nullptr, &command_pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    command_info.commandPool = command_pool;
    command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    command_info.commandBufferCount = 1;
    check(AllocateCommandBuffers(device, &command_info, &command_buffer), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(CreateFence(device, &fence_info, nullptr, &fence), "vkCreateFence");
  }

  static void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) fail(what, result);
  }

  void dispatch(VkPipeline pipeline) {
    check(ResetCommandPool(device, command_pool, 0), "vkResetCommandPool");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(BeginCommandBuffer(command_buffer, &begin), "vkBeginCommandBuffer");
    CmdBindPipeline(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    CmdBindDescriptorSets(command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    static const uint8_t push_data[256] = {1, 2, 3, 4, 5, 6, 7, 8};
    CmdPushConstants(command_buffer, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                     std::min<uint32_t>(sizeof push_data, properties.limits.maxPushConstantsSize), push_data);
    CmdDispatch(command_buffer, 1, 1, 1);
    check(EndCommandBuffer(command_buffer), "vkEndCommandBuffer");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &command_buffer;
    check(QueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
    // A loop-free shader of one workgroup ends in milliseconds; a minute means Kiln hangs.
    check(WaitForFences(device, 1, &fence, VK_TRUE, 60'000'000'000ull), "vkWaitForFences (a hang)");
    check(ResetFences(device, 1, &fence), "vkResetFences");
  }
};

Kiln& harness() {
  static Kiln* instance = [] {
    auto* k = new Kiln;  // lives until exit: the device outlives every input
    k->create();
    return k;
  }();
  return *instance;
}

// What the harness needs to know about a module: its GLCompute entry point and whether a dispatch
// of it is something a correct application could submit with this harness's layout.
struct ModuleFacts {
  std::string compute_entry;
  bool has_compute_entry = false;
  bool dispatchable = true;
};

std::string literal_string(const uint32_t* words, size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i)
    for (int byte = 0; byte < 4; ++byte) {
      const char c = static_cast<char>((words[i] >> (8 * byte)) & 0xff);
      if (c == '\0') return text;
      text += c;
    }
  return text;
}

ModuleFacts facts_of(const std::vector<uint32_t>& words, const VkPhysicalDeviceLimits& limits) {
  ModuleFacts facts;
  std::vector<kiln::fuzz::InstructionSpan> spans;
  if (!kiln::fuzz::split_instructions(words, &spans)) return facts;
  std::vector<std::pair<uint32_t, uint32_t>> variables;  // (id, storage class)
  std::vector<std::pair<uint32_t, bool>> resources;       // (id, set/binding inside the layout)
  for (const auto& span : spans) {
    const uint32_t* in = &words[span.first];
    const uint32_t n = span.word_count;
    switch (in[0] & 0xffff) {
      case 17:  // OpCapability: device addresses and variable pointers reach arbitrary memory
        if (n >= 2 && (in[1] == 5347 || in[1] == 4441 || in[1] == 4442)) facts.dispatchable = false;
        break;
      case 15:  // OpEntryPoint: the first GLCompute one
        if (n >= 4 && in[1] == 5 && !facts.has_compute_entry) {
          facts.has_compute_entry = true;
          facts.compute_entry = literal_string(in + 3, n - 3);
        }
        break;
      case 16:  // OpExecutionMode LocalSize within the limits; LocalSizeId is not checked here
      case 331:
        if (n >= 3 && in[2] == 38) facts.dispatchable = false;
        if (n >= 6 && in[2] == 17) {
          const uint64_t x = in[3], y = in[4], z = in[5];
          if (x == 0 || y == 0 || z == 0 || x > limits.maxComputeWorkGroupSize[0] || y > limits.maxComputeWorkGroupSize[1] ||
              z > limits.maxComputeWorkGroupSize[2] || x * y * z > limits.maxComputeWorkGroupInvocations)
            facts.dispatchable = false;
        }
        break;
      case 71:  // OpDecorate
        if (n >= 4 && in[2] == 34) resources.push_back({in[1], in[3] == 0});          // DescriptorSet
        if (n >= 4 && in[2] == 33) resources.push_back({in[1], in[3] < kBindings});   // Binding
        if (n >= 4 && in[2] == 11 && in[3] == 25) facts.dispatchable = false;         // BuiltIn WorkgroupSize: not checked
        break;
      case 59:  // OpVariable
        if (n >= 4) variables.push_back({in[2], in[3]});
        break;
      case 246:  // OpLoopMerge: the shader might never end
        facts.dispatchable = false;
        break;
    }
  }
  for (const auto& [id, inside] : resources) {
    bool storage_buffer = false;
    for (const auto& [variable, storage_class] : variables) storage_buffer |= variable == id && storage_class == 12;
    if (!inside || !storage_buffer) facts.dispatchable = false;
  }
  return facts;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  harness();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Kiln& k = harness();
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) memcpy(words.data(), data, words.size() * 4);
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = size & ~size_t{3};
  module_info.pCode = words.empty() ? nullptr : words.data();
  if (words.empty()) return 0;  // codeSize 0 is not allowed by the spec (VUID-VkShaderModuleCreateInfo-codeSize-01085)
  VkShaderModule module;
  const VkResult created = k.CreateShaderModule(k.device, &module_info, nullptr, &module);
  if (created != VK_SUCCESS) return 0;
  const ModuleFacts facts = facts_of(words, k.properties.limits);
  if (facts.has_compute_entry) {
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module,
                  facts.compute_entry.c_str()};
    info.layout = k.layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    const VkResult result = k.CreateComputePipelines(k.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
    if (result != VK_SUCCESS && result != VK_ERROR_UNKNOWN && result != VK_ERROR_OUT_OF_HOST_MEMORY &&
        result != VK_ERROR_OUT_OF_DEVICE_MEMORY)
      fail("vkCreateComputePipelines returned a code the spec does not allow;", result);
    if (result != VK_SUCCESS && pipeline != VK_NULL_HANDLE) fail("vkCreateComputePipelines left a handle on failure;", result);
    if (result == VK_SUCCESS) {
      if (facts.dispatchable) k.dispatch(pipeline);
      k.DestroyPipeline(k.device, pipeline, nullptr);
    }
  }
  k.DestroyShaderModule(k.device, module, nullptr);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) memcpy(words.data(), data, words.size() * 4);
  if (seed % 8 != 0 &&
      kiln::fuzz::mutate_module(&words, max_size / 4, seed, [](uint8_t* bytes, size_t n, size_t max) { return LLVMFuzzerMutate(bytes, n, max); })) {
    memcpy(data, words.data(), words.size() * 4);
    return words.size() * 4;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
