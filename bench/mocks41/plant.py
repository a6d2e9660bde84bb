#!/usr/bin/env python3
"""Plants the eight defects of bench/mocks41.md in a copy of the shadcn trial
package (run in that copy's root; git clone of setup-shadcn.sh's repository)."""


def sub(path, old, new):
    s = open(path).read()
    assert old in s, (path, old)
    open(path, "w").write(s.replace(old, new, 1))


# P1 missing-export the code tolerates: getConfig left out (search.ts:115 catches it)
sub("src/commands/search.test.ts", "  createConfig: vi.fn(() => baseConfig),\n  getConfig: vi.fn(() => null),\n}))",
    "  createConfig: vi.fn(() => baseConfig),\n}))")
# P2 a plain value for an async function
sub("src/utils/registries.test.ts", "vi.mocked(getRegistriesIndex).mockResolvedValue({", "vi.mocked(getRegistriesIndex).mockReturnValue({")
# P3 a promise for a synchronous function (configWithDefaults returns createConfig() or configSchema.parse())
sub("src/utils/add-components.test.ts", "configWithDefaults: vi.fn((config) => config),", "configWithDefaults: vi.fn(async (config) => config),")
# P4 an export the module does not have
sub("src/utils/transformers/transform-next.test.ts", 'vi.mock("@/src/utils/get-project-info", () => ({\n  getProjectInfo: vi.fn(),',
    'vi.mock("@/src/utils/get-project-info", () => ({\n  getProjectInfo: vi.fn(),\n  getProjectInfoSync: vi.fn(),')
# P5 null for an async function, in a factory (and the file's own drift fixed: getRegistryIcons made async)
sub("src/utils/transformers/transform-legacy-icons.test.ts", "getRegistryIcons: () => ({",
    "getShadcnRegistryIndex: vi.fn(() => null),\n  getRegistryIcons: async () => ({")
# P6 an implementation returning its (string) argument for an async function
sub("src/utils/dry-run.test.ts", ".mockImplementation((input, _css) => `${input}\\n/* css added */`),", ".mockImplementation((input, _css) => input),")
# P7 a shape the real function cannot return (cfg for config), made async to keep P7 apart from the async drift there
sub("src/commands/search.test.ts", "  ensureRegistriesInConfig: vi.fn(() => ({\n    config: baseConfig,",
    "  ensureRegistriesInConfig: vi.fn(async () => ({\n    cfg: baseConfig,")
# P8 missing-export the code calls, unguarded: getPackageJsonRegistries left out
sub("src/utils/registries.test.ts", "  getRegistriesIndex: vi.fn(),\n  getPackageJsonRegistries: vi.fn(),\n}))", "  getRegistriesIndex: vi.fn(),\n}))")
