// VK_EXT_debug_utils in Kiln (icd/debug_utils.cpp): messengers chained to VkInstanceCreateInfo hear
// vkCreateInstance and vkDestroyInstance, messengers' severity and type filters, application
// messages through the loader, object names and labels, and delivery racing with messenger
// creation and destruction (Kiln's ICD called directly, without the loader).
#include <dlfcn.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <thread>

#include "e2e/debug_messages.h"
#include "e2e/vk_fixture.h"

namespace kiln::test {
namespace {

constexpr VkDebugUtilsMessageSeverityFlagsEXT kAllSeverities =
    VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
    VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
constexpr VkDebugUtilsMessageTypeFlagsEXT kAllTypes = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                                      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;

std::vector<std::string> ids(const std::vector<DebugMessage>& messages) {
  std::vector<std::string> out;
  for (const DebugMessage& m : messages) out.push_back(m.id);
  return out;
}

class DebugUtilsTest : public VulkanTest {};

// A messenger chained to VkInstanceCreateInfo hears Kiln's report from inside vkCreateInstance and
// the one from inside vkDestroyInstance, and nothing else of Kiln's.
TEST_F(DebugUtilsTest, ChainedMessengerHearsInstanceCreationAndDestruction) {
  KILN_ONLY();
  MessageLog chained;
  VkDebugUtilsMessengerCreateInfoEXT messenger_info = chained.info(kAllSeverities, kAllTypes);
  VkApplicationInfo app{.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "kiln-debug-utils-test";
  app.apiVersion = VK_API_VERSION_1_3;
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkInstanceCreateInfo create_info{.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pNext = &messenger_info};
  create_info.pApplicationInfo = &app;
  create_info.enabledLayerCount = 1;
  create_info.ppEnabledLayerNames = &layer;
  create_info.enabledExtensionCount = 1;
  create_info.ppEnabledExtensionNames = &extension;
  VkInstance instance = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, vkCreateInstance(&create_info, nullptr, &instance));

  std::vector<DebugMessage> kiln = chained.with_id("KILN-");
  ASSERT_EQ(1u, kiln.size()) << "Kiln reports once while creating the instance";
  EXPECT_EQ("KILN-instance-created", kiln[0].id);
  EXPECT_EQ(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, kiln[0].severity);
  EXPECT_EQ(VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, kiln[0].types);
  EXPECT_NE(std::string::npos, kiln[0].text.find("Vulkan 1.3 requested by kiln-debug-utils-test")) << kiln[0].text;

  vkDestroyInstance(instance, nullptr);
  kiln = chained.with_id("KILN-");
  ASSERT_EQ(2u, kiln.size());
  EXPECT_EQ("KILN-instance-destroyed", kiln[1].id);
  for (const DebugMessage& m : chained.messages())
    EXPECT_LT(m.severity, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) << m.id << ": " << m.text;
}

// vkSubmitDebugUtilsMessageEXT through the loader (whose terminator delivers application
// messages itself, not through the ICDs): each messenger gets each message its filters accept,
// once — Kiln's messengers must not repeat them.
TEST_F(DebugUtilsTest, SubmittedMessagesFollowEachMessengersFilters) {
  VkInstance handle = instance().handle();
  MessageLog info_only, verbose_and_info, general_only;
  info_only.create(handle, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, kAllTypes);
  verbose_and_info.create(handle,
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT,
                          kAllTypes);
  general_only.create(handle,
                      VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT,
                      VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT);
  auto submit_message = reinterpret_cast<PFN_vkSubmitDebugUtilsMessageEXT>(
      vkGetInstanceProcAddr(handle, "vkSubmitDebugUtilsMessageEXT"));
  ASSERT_NE(nullptr, submit_message);
  auto submit = [&](VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                    const char* id) {
    VkDebugUtilsMessengerCallbackDataEXT data{.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
    data.pMessageIdName = id;
    data.pMessage = "from the test";
    submit_message(handle, severity, types, &data);
  };
  submit(VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "test-verbose");
  submit(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "test-info");
  submit(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
         "test-performance");
  EXPECT_EQ((std::vector<std::string>{"test-info", "test-performance"}), ids(info_only.with_id("test-")));
  EXPECT_EQ((std::vector<std::string>{"test-verbose", "test-info", "test-performance"}),
            ids(verbose_and_info.with_id("test-")));
  EXPECT_EQ((std::vector<std::string>{"test-verbose", "test-info"}), ids(general_only.with_id("test-")));
}

// Names, tags and labels are accepted on Kiln's objects without complaint from the validation layer.
TEST_F(DebugUtilsTest, ObjectNamesTagsAndLabelsAreAccepted) {
  TestDevice& dev = device();
  VkDevice handle = dev.handle();
  auto set_name = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(vkGetDeviceProcAddr(handle, "vkSetDebugUtilsObjectNameEXT"));
  auto set_tag = reinterpret_cast<PFN_vkSetDebugUtilsObjectTagEXT>(vkGetDeviceProcAddr(handle, "vkSetDebugUtilsObjectTagEXT"));
  auto cmd_begin = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(vkGetDeviceProcAddr(handle, "vkCmdBeginDebugUtilsLabelEXT"));
  auto cmd_insert = reinterpret_cast<PFN_vkCmdInsertDebugUtilsLabelEXT>(vkGetDeviceProcAddr(handle, "vkCmdInsertDebugUtilsLabelEXT"));
  auto cmd_end = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(vkGetDeviceProcAddr(handle, "vkCmdEndDebugUtilsLabelEXT"));
  auto queue_begin = reinterpret_cast<PFN_vkQueueBeginDebugUtilsLabelEXT>(vkGetDeviceProcAddr(handle, "vkQueueBeginDebugUtilsLabelEXT"));
  auto queue_insert = reinterpret_cast<PFN_vkQueueInsertDebugUtilsLabelEXT>(vkGetDeviceProcAddr(handle, "vkQueueInsertDebugUtilsLabelEXT"));
  auto queue_end = reinterpret_cast<PFN_vkQueueEndDebugUtilsLabelEXT>(vkGetDeviceProcAddr(handle, "vkQueueEndDebugUtilsLabelEXT"));
  ASSERT_TRUE(set_name && set_tag && cmd_begin && cmd_insert && cmd_end && queue_begin && queue_insert && queue_end);

  Buffer buffer = dev.create_buffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkDebugUtilsObjectNameInfoEXT name{.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
  name.objectType = VK_OBJECT_TYPE_BUFFER;
  name.objectHandle = reinterpret_cast<uint64_t>(buffer.buffer);
  name.pObjectName = "the test's buffer";
  EXPECT_EQ(VK_SUCCESS, set_name(handle, &name));
  name.pObjectName = "";  // removes the name (null would too; Mesa 22.3 answers it with OUT_OF_HOST_MEMORY)
  EXPECT_EQ(VK_SUCCESS, set_name(handle, &name));
  const uint32_t tag_data = 42;
  VkDebugUtilsObjectTagInfoEXT tag{.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_TAG_INFO_EXT};
  tag.objectType = VK_OBJECT_TYPE_BUFFER;
  tag.objectHandle = reinterpret_cast<uint64_t>(buffer.buffer);
  tag.tagName = 1;
  tag.tagSize = sizeof tag_data;
  tag.pTag = &tag_data;
  EXPECT_EQ(VK_SUCCESS, set_tag(handle, &tag));

  VkDebugUtilsLabelEXT label{.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = "fill"};
  queue_begin(dev.queue(), &label);
  dev.run_commands([&](VkCommandBuffer cmd) {
    cmd_begin(cmd, &label);
    cmd_insert(cmd, &label);
    vkCmdFillBuffer(cmd, buffer.buffer, 0, 256, 0x01020304u);
    cmd_end(cmd);
  });
  queue_insert(dev.queue(), &label);
  queue_end(dev.queue());
  EXPECT_EQ(0x01020304u, *reinterpret_cast<const uint32_t*>(buffer.mapped));
}

// Kiln's ICD without the loader: its own vkSubmitDebugUtilsMessageEXT applies each messenger's
// filters, and a messenger destroyed while other threads report is never called after
// vkDestroyDebugUtilsMessengerEXT has returned.
class DirectIcd {
 public:
  DirectIcd() {
    library_ = dlopen(KILN_TEST_ICD_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library_) return;
    gipa_ = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library_, "vk_icdGetInstanceProcAddr"));
    auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa_(VK_NULL_HANDLE, "vkCreateInstance"));
    const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo info{.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &extension;
    if (create(&info, nullptr, &instance_) != VK_SUCCESS) {
      instance_ = VK_NULL_HANDLE;
      return;
    }
    create_messenger = get<PFN_vkCreateDebugUtilsMessengerEXT>("vkCreateDebugUtilsMessengerEXT");
    destroy_messenger = get<PFN_vkDestroyDebugUtilsMessengerEXT>("vkDestroyDebugUtilsMessengerEXT");
    submit = get<PFN_vkSubmitDebugUtilsMessageEXT>("vkSubmitDebugUtilsMessageEXT");
  }
  ~DirectIcd() {
    if (instance_) reinterpret_cast<PFN_vkDestroyInstance>(gipa_(instance_, "vkDestroyInstance"))(instance_, nullptr);
    if (library_) dlclose(library_);
  }
  // The instance, and the three messenger commands (all set: the test can go on).
  bool ready() const { return instance_ && create_messenger && destroy_messenger && submit; }
  VkInstance instance() const { return instance_; }
  PFN_vkCreateDebugUtilsMessengerEXT create_messenger = nullptr;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger = nullptr;
  PFN_vkSubmitDebugUtilsMessageEXT submit = nullptr;
  template <typename Fn>
  Fn get(const char* name) const {
    return reinterpret_cast<Fn>(gipa_(instance_, name));
  }

 private:
  void* library_ = nullptr;
  PFN_vkGetInstanceProcAddr gipa_ = nullptr;
  VkInstance instance_ = VK_NULL_HANDLE;
};

class DirectDebugUtilsTest : public VulkanTest {
 protected:
  void SetUp() override {
    VulkanTest::SetUp();
    if (!is_kiln()) GTEST_SKIP() << "calls Kiln's ICD library directly; driver under test is " << properties().deviceName;
    icd_ = std::make_unique<DirectIcd>();
    ASSERT_TRUE(icd_->ready()) << "Kiln's ICD without the loader: instance and messenger commands";
  }
  std::unique_ptr<DirectIcd> icd_;
};

TEST_F(DirectDebugUtilsTest, KilnsMessengersApplySeverityAndTypeFilters) {
  DirectIcd& icd = *icd_;
  MessageLog warnings, info_general, everything;
  struct Made {
    MessageLog* log;
    VkDebugUtilsMessageSeverityFlagsEXT severities;
    VkDebugUtilsMessageTypeFlagsEXT types;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  } made[] = {{&warnings, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, kAllTypes},
              {&info_general, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT},
              {&everything, kAllSeverities, kAllTypes}};
  for (Made& m : made) {
    const VkDebugUtilsMessengerCreateInfoEXT info = m.log->info(m.severities, m.types);
    ASSERT_EQ(VK_SUCCESS, icd.create_messenger(icd.instance(), &info, nullptr, &m.messenger));
  }
  auto send = [&](VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types, const char* id) {
    VkDebugUtilsMessengerCallbackDataEXT data{.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
    data.pMessageIdName = id;
    data.pMessage = "direct";
    icd.submit(icd.instance(), severity, types, &data);
  };
  send(VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "verbose");
  send(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "info-general");
  send(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "info-validation");
  send(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT, "warning");
  send(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "error");
  icd.destroy_messenger(icd.instance(), made[2].messenger, nullptr);
  send(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "after");
  icd.destroy_messenger(icd.instance(), made[0].messenger, nullptr);
  icd.destroy_messenger(icd.instance(), made[1].messenger, nullptr);
  send(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "none");

  EXPECT_EQ((std::vector<std::string>{"warning", "error", "after"}), ids(warnings.messages()));
  EXPECT_EQ((std::vector<std::string>{"info-general"}), ids(info_general.messages()));
  EXPECT_EQ((std::vector<std::string>{"verbose", "info-general", "info-validation", "warning", "error"}),
            ids(everything.messages()));
}

// Reports from several threads while messengers come and go: every report reaches the messenger
// that lives throughout, and no callback runs for a messenger after its destruction returned.
TEST_F(DirectDebugUtilsTest, MessengersComeAndGoWhileThreadsReport) {
  DirectIcd& icd = *icd_;
  std::atomic<uint64_t> steady_calls{0};
  struct Transient {
    std::atomic<bool> destroyed{false};
    std::atomic<uint32_t> late_calls{0};
  };
  auto steady_callback = [](VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                            const VkDebugUtilsMessengerCallbackDataEXT*, void* user) -> VkBool32 {
    static_cast<std::atomic<uint64_t>*>(user)->fetch_add(1);
    return VK_FALSE;
  };
  auto transient_callback = [](VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                               const VkDebugUtilsMessengerCallbackDataEXT*, void* user) -> VkBool32 {
    auto* t = static_cast<Transient*>(user);
    if (t->destroyed.load()) t->late_calls.fetch_add(1);
    return VK_FALSE;
  };
  VkDebugUtilsMessengerCreateInfoEXT info{.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  info.messageSeverity = kAllSeverities;
  info.messageType = kAllTypes;
  info.pfnUserCallback = steady_callback;
  info.pUserData = &steady_calls;
  VkDebugUtilsMessengerEXT steady = VK_NULL_HANDLE;
  ASSERT_EQ(VK_SUCCESS, icd.create_messenger(icd.instance(), &info, nullptr, &steady));

  constexpr int kThreads = 3, kReportsPerThread = 2000, kTransients = 300;
  std::vector<std::thread> reporters;
  for (int t = 0; t < kThreads; ++t)
    reporters.emplace_back([&] {
      VkDebugUtilsMessengerCallbackDataEXT data{.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
      data.pMessageIdName = "race";
      data.pMessage = "race";
      for (int i = 0; i < kReportsPerThread; ++i)
        icd.submit(icd.instance(), VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, &data);
    });
  std::vector<std::unique_ptr<Transient>> transients;
  for (int i = 0; i < kTransients; ++i) {
    transients.push_back(std::make_unique<Transient>());
    info.pfnUserCallback = transient_callback;
    info.pUserData = transients.back().get();
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    ASSERT_EQ(VK_SUCCESS, icd.create_messenger(icd.instance(), &info, nullptr, &messenger));
    std::this_thread::yield();
    icd.destroy_messenger(icd.instance(), messenger, nullptr);
    transients.back()->destroyed.store(true);
  }
  for (std::thread& t : reporters) t.join();
  icd.destroy_messenger(icd.instance(), steady, nullptr);
  EXPECT_EQ(uint64_t{kThreads} * kReportsPerThread, steady_calls.load());
  for (const auto& t : transients) EXPECT_EQ(0u, t->late_calls.load());
}

}  // namespace
}  // namespace kiln::test
