-- shapecheck language server for Neovim (nvim-lspconfig).
-- Put this file on your runtimepath (e.g. ~/.config/nvim/lua/shapecheck.lua) and `require("shapecheck")`.
-- Needs `shapecheck` on PATH with the [lsp] extra. It is not on PyPI: from a checkout,
-- `pip install "/path/to/shapecheck[lsp]"`, or from git, `pip install "shapecheck-tensors[lsp] @ git+https://github.com/OWNER/shapecheck@c760793270305647fdbb6383f15261d716bbb002"`.
local configs = require("lspconfig.configs")
local lspconfig = require("lspconfig")
local util = require("lspconfig.util")

if not configs.shapecheck then
  configs.shapecheck = {
    default_config = {
      cmd = { "shapecheck", "lsp" },
      filetypes = { "python" },
      root_dir = util.root_pattern("pyproject.toml", "setup.cfg", ".git"),
      single_file_support = true,
      settings = {},
    },
    docs = {
      description = "shapecheck: static shape checking for einops patterns and jaxtyping annotations",
    },
  }
end

lspconfig.shapecheck.setup({})

-- Neovim 0.11+ without nvim-lspconfig:
-- vim.lsp.config("shapecheck", { cmd = { "shapecheck", "lsp" }, filetypes = { "python" },
--   root_markers = { "pyproject.toml", ".git" } })
-- vim.lsp.enable("shapecheck")
