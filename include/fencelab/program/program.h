// The checked kernel: the annotated AST plus the harness in structured form.
//
// Both the simulator and the CUDA backend consume a Program; neither re-parses text. The
// front end (frontend/compile.h) builds it from one `.cu` file and its `//@` directives.
#pragma once

#include "fencelab/frontend/ast.h"
#include "fencelab/support/source.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fencelab {

enum class MemorySpace : uint8_t { Global, Shared, Constant };

/**
 * One object of simulated global, shared or constant memory: a `__device__`/`__shared__`/
 * `__constant__` variable, or a device buffer made for a pointer argument. An object is an
 * array of `element_count` naturally aligned elements of `element_type`; a location is one
 * element (see machine/location.h). Shared objects get one instance per resident block.
 */
struct MemoryObject {
  std::string name;            ///< variable name, or the parameter name for argument buffers
  SourceRange range;           ///< the declaration, or the `//@ arg` directive
  MemorySpace space = MemorySpace::Global;
  Type element_type;
  uint32_t element_count = 1;
  bool is_array = false;
  bool is_volatile = false;
  /** Initial contents as canonical words of element_type; empty means all zero. */
  std::vector<Word> initial_values;
  /** False when the contents are undefined at kernel start (uninitialised shared memory,
   *  buffers declared `uninit`); reads before a write are then uninitialised reads. */
  bool initialized = true;
  const VarDecl* declaration = nullptr; ///< null for argument buffers
  /** Structs whose fields differ in type: element i holds field i % size of type field_types[i %
   *  size] in element_type's bytes (VarDecl::field_types). Empty: every element is element_type. */
  std::vector<ScalarType> field_types;
  /** The type element `i` is read and shown as. */
  Type type_of_element(uint32_t i) const {
    Type type = element_type;
    if (!field_types.empty()) type.scalar = field_types[i % field_types.size()];
    return type;
  }
};

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t total() const { return uint64_t(x) * y * z; }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

/** Why `block` is not a launchable block shape, or "" (CUDA C++ Programming Guide,
 *  "Technical Specifications per Compute Capability": x and y at most 1024, z at most 64,
 *  1024 threads in all). */
std::string block_shape_problem(const Dim3& block);
/** Why `grid` is not a launchable grid shape, or "": x at most 2^31-1, y and z at most 65535
 *  (same table), and at most 2^32-1 blocks in all, the most the simulator numbers. */
std::string grid_shape_problem(const Dim3& grid);

struct LaunchConfig {
  const FunctionDecl* kernel = nullptr;
  Dim3 grid, block;
  /** `resident=N`: at most N blocks resident at once, as on a smaller GPU (0: the Machine's
   *  default; `--resident-blocks` overrides both). */
  uint32_t resident_blocks = 0;
  /** `shared=BYTES`: each block's dynamic shared memory, the size of its `extern __shared__`
   *  array (the launch's third parameter in CUDA); 0 when not given. */
  uint32_t dynamic_shared_bytes = 0;
  SourceRange range; ///< the `//@ launch` directive (or the kernel, when defaulted)
  /** Set when --grid or --block replaced the directive's shape (program/launch_shape.h);
   *  witness tokens then replay only with the same options. */
  bool grid_overridden = false, block_overridden = false;
  /** Template arguments given with `//@ template`, in the kernel's parameter order. */
  std::vector<std::pair<std::string, int64_t>> template_args;
};

/** One kernel argument: a scalar value, or the pointer to a buffer object. */
struct KernelArgument {
  const VarDecl* parameter = nullptr;
  Word value = 0;                       ///< scalar: its word; buffer: unused (see buffer_object)
  std::optional<uint32_t> buffer_object; ///< index into memory_objects for pointer parameters
  SourceRange range;
};

/** One observed value of the outcome: a memory element, or a thread's local variable. */
struct ObservedItem {
  enum class Kind : uint8_t { Memory, Local };
  Kind kind = Kind::Memory;
  std::string label; ///< as printed in outcomes: `X`, `result[0]`, `A`
  SourceRange range;
  Type type;
  uint32_t object_id = 0;     ///< Memory: the object
  uint32_t element_index = 0; ///< Memory: the element
  const VarDecl* local = nullptr; ///< Local: the variable; its last value in the one thread
                                  ///< that declared it is the observed value
};

/** `name=value ...`: matches an outcome whose listed items have the listed values. */
struct OutcomePattern {
  SourceRange range;
  std::vector<std::pair<uint32_t, Word>> items; ///< (ObservedItem index, canonical word)
};

enum class ExpectationKind : uint8_t {
  Exactly,     ///< the reachable outcomes are exactly those matching the patterns, one each
  Reachable,   ///< some execution reaches an outcome matching the pattern
  Unreachable, ///< no execution reaches an outcome matching the pattern
  Always,      ///< the predicate holds in every execution's outcome
  Diagnostic,  ///< the checkers report a diagnostic of this kind
  NoDiagnostics, ///< the checkers report nothing
};

/** The memory models a directive can name. */
inline constexpr std::array<const char*, 3> kModelNames = {"sc", "tso", "gpu"};

struct Expectation {
  SourceRange range;
  /** Names from kModelNames, never empty; a name with ".lockstep" appended ("gpu.lockstep")
   *  applies under `--warp lockstep` (machine.h mode_name), a bare name under ITS. */
  std::vector<std::string> models;
  ExpectationKind kind = ExpectationKind::Reachable;
  std::vector<OutcomePattern> patterns; ///< Exactly: one or more; Reachable/Unreachable: one
  ExprPtr predicate;                    ///< Always: typed by sema, names are observed items
  std::string diagnostic_kind;          ///< Diagnostic
  std::string text;                     ///< the directive text, for reports
};

struct Program {
  std::shared_ptr<const SourceFile> source;
  TranslationUnit unit;
  std::vector<MemoryObject> memory_objects;
  LaunchConfig launch;
  std::vector<KernelArgument> arguments; ///< one per kernel parameter, in order
  std::vector<ObservedItem> observed; ///< appended by add_observed, which keeps the label index
  std::vector<Expectation> expectations;
  /** The math functions the file calls that a GPU computes within some ulp of the exact value
   *  fencelab computes (sema_builtins.cpp), sorted: `compare` names them where a value differs. */
  std::vector<std::string> approximate_math;

  /** Appends `item`, unless an item with its label is observed already (then false). */
  bool add_observed(ObservedItem item);
  /** The item labelled so, or null (constant time: a 16M-element buffer may be observed). */
  const ObservedItem* find_observed(std::string_view label) const;
  /** The labels for a message: "X, Y", the first 16 and then how many more; "nothing". */
  std::string observed_labels() const;

private:
  std::unordered_map<std::string, uint32_t> m_observed_by_label; ///< label -> index in observed
};

} // namespace fencelab
