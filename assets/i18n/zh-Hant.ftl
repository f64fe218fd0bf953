# 七國象棋的介面文字（繁體中文）。每一則訊息都須與 en.ftl 相同，變數亦同（測試會檢查）。

## 名稱

kingdom-qin = 秦
kingdom-chu = 楚
kingdom-han = 韓
kingdom-qi = 齊
kingdom-wei = 魏
kingdom-zhao = 趙
kingdom-yan = 燕
piece-general = 將軍
piece-chancellor = 偏將
piece-diplomat = 裨將
piece-cannon = 砲
piece-go-between = 行人
piece-archer = 弓手
piece-crossbowman = 弩手
piece-dagger = 刀手
piece-swordsman = 劍士
piece-knight = 騎兵
level-random = 隨機
level-easy = 易
level-medium = 中
level-hard = 難
player-person = 真人
preset-classic = 依一二〇六年原文：損失十一子即敗，殘軍離盤；取兩將或吃三十子者勝
preset-wikipedia = 殘軍易主；擊敗兩國或吃子超過三十者勝
preset-elephantchess = elephantchess.io：損失十子即敗，殘軍及其棋子歸勝方
preset-leventhal = 弓、弩、騎的步數固定；損失十子即敗，殘軍離盤
victory-generals = 取得兩將
victory-kingdoms = 擊敗兩國
victory-captures = 吃子達到目標
victory-last = 是棋局中僅存的一方
victory-early-end = 在棋局結束時吃子最多
list-separator = {"、"}
list-and = { $first }和{ $last }
moves-count = { $count } 步
player-unnamed = —

## 工具列

menu-new-game = 新局…
menu-save = 存檔…
menu-load = 讀檔…
saving-off = 本次不存檔
save-default-name = 棋局 { $when }
menu-share = 分享…
menu-share-hint = 以文字複製或貼上局面或整局棋
menu-rules = 規則
menu-rules-hint = 本局所用的規則，以及各套規則的差異（{ $key }）
menu-hint = 提示
menu-hint-hint = 「難」級電腦會走的一步，給輪到的玩家（{ $key }）
hint-searching = 正在尋找提示…
hint-shown = 提示：{ $mv } — { $reason }
hint-takes-general = 吃掉{ $kingdom }的將
hint-takes = 吃掉{ $kingdom }的{ $piece }
hint-saves = 救出你的{ $piece }
hint-position = 局面上最好的一步
menu-concede = 認輸…
menu-concede-hint = 讓輪到的國家認輸：電腦（或其他玩家）繼續對局
concede-title = { $kingdom }認輸？
concede-explain = 此國如同未被吃將而亡：依本局規則，吃其棋子最多的國家（若有）得此國。
concede-ends = 對局就此結束：{ $kingdom }以{ $how }獲勝。
concede-undo = 如一步棋記入棋譜；{ $key }可悔回。
concede-confirm = { $kingdom }認輸
finish-title = 已無真人在局中
finish-explain = 所有真人的國家都已出局。可讓電腦下完此局，或開新局。
finish-instant = 讓電腦下完（即時）
finish-watch = 以目前節奏觀看
menu-settings = 設定…
menu-settings-hint = 視角、聲音、語言、介面大小、全螢幕——下次仍保留
view-label = 視角
view-from-behind = 從{ $kingdom }的一方看（按鍵 { $key }）
view-top = 俯視
view-top-hint = 從上方看（按鍵 { $key }）
follow-turn = 轉向輪到的國家
toolbar-threats = 威脅
threats-hint = 標出他國攻擊的位置，以及你可能被吃的棋子（按鍵 { $key }）
hand-off = 換人提示
hand-off-hint = 棋盤交給另一人時，顯示國名與玩家名
sound-mute = 靜音
mute-hint = 關閉聲音（按鍵 { $key }）
sound-volume = 音量

## 狀態列

toast-move-refused = { $mv }：{ $reason }
status-won = { $kingdom }勝：{ $how }
status-reviewing = 回顧棋局 · 已下 { $count } 步
status-reviewing-keys = { $back } { $forward } 逐步 · { $first }：開局 · { $live } 或 { $escape }：回到棋局
status-thinking = 第 { $ply } 步 · { $kingdom }（{ $level }級電腦）思考中…
status-to-move = 第 { $ply } 步 · 輪到{ $kingdom }（{ $player }）
status-mouse-keys = 點選棋子 · { $preview }：預覽任一棋子 · 右鍵拖曳：旋轉 · 滾輪：縮放

## 新局

new-game-title = 新局
new-game-rules = 規則
new-game-seating = 座位
seating-seven = 七人，每人一國
seating-six = 六人（一二〇六年原文：秦方多執一國）
seating-five = 五人（…楚方亦然）
seating-four = 四人（…齊方亦然）
seating-three = 三人（秦方多執兩國）
seating-present = 只有在場的玩家
seating-two-players = 二人（Savard：楚、齊、趙對韓、魏、燕）
new-game-also-takes = { $kingdom }方另執
new-game-and = …及
new-game-empty = 空國（無兵）：{ $kingdoms }
new-game-start = 開始
player-default-name = 玩家 { $number }
seating-error-two-players = 一局至少要有兩位玩家
seating-error-held = { $kingdom }已有人執掌：{ $player }方不能再取
## 攻擊盟國、終局

ally-title = 攻擊盟國{ $ally }？
ally-question = { $ally }與{ $mover }屬於同一位玩家。若攻擊它，{ $ally }即告棄權：其棋子全數離盤，誰也不計吃子（若擊與國，則盡撤去與國之棋）。
ally-attack = 攻擊
dialog-cancel = 取消
game-over-title = 終局
game-over-wins = { $kingdom }勝
game-over-how = { $player }{ $how }。
game-over-captures = 吃 { $count } 子
game-over-report = 對局報告
game-over-look = 看棋盤
game-over-take-back = 悔一步

## 著法的文字

move-passes = { $ply }. { $kingdom }停一手
move-concedes = { $ply }. { $kingdom }認輸
move-army-leaves = 。殘軍離盤
move-sentence = { $ply }. { $kingdom } { $piece } { $from }–{ $to }
move-takes = ，吃{ $owner }的{ $piece }（{ $characters }）
move-forfeits = 。{ $kingdom }遭盟國{ $ally }攻擊，棄權
move-beaten-army-to = 。{ $kingdom }敗，殘軍歸{ $victor }
move-beaten-army-leaves = 。{ $kingdom }敗於{ $victor }，殘軍離盤
fall-short-forfeits = { $kingdom }棄權
fall-short-to = { $kingdom }歸{ $victor }
fall-short-falls = { $kingdom }亡

## 棋子走法（棋子卡與規則視窗）

how-ranged-up-to = 沿直線或斜線走 1 至 { $points } 點。
how-ranged-exactly = 沿直線或斜線恰走 { $points } 點，途經之點須空。
how-general = 沿直線或斜線走任意距離。失將即失國。
how-chancellor = 沿直線走任意距離。
how-diplomat = 沿斜線走任意距離。
how-cannon = 沿直線走任意距離到空點；吃子時須恰好隔一子（任何棋子，周天子亦可）跳吃其後第一子。
how-go-between = 沿直線或斜線走任意距離到空點；不吃子，也不被吃。
how-dagger = 斜走一點。
how-swordsman = 直走一點。
how-knight-up-to = 先直走一點（須空），再向外斜走 1 至 3 點，遇子即止。
how-knight-exactly = 先直走一點（須空），再向外斜走恰好 3 點，途經之點須空。
card-where = { $kingdom } · 在 { $point }
card-moves-now = { $count ->
    [0] 現在無路可走
   *[other] 現在可走 { $count } 步
}
card-diagram = 空盤上依本局規則的走法。周：周天子。

## 規則視窗

rules-title = 規則
rules-this-game = 本局
rules-played = 規則：{ $rules }。
rules-preset-named = 「{ $preset }」規則
rules-custom = 自訂選項
rules-turns = 七國依序輪走，自西方的秦起逆時針而行。中央的周天子（周）永不移動，也不會被吃；他擋住直線與騎兵，砲可以隔他而吃。
rules-no-check = 沒有「將軍」：被攻擊的將不必保護。
rules-how-kingdoms-fall = 國家如何敗亡
rules-captures = 每吃一子，吃者記一子，失者記一損。
rules-beaten-at = 將被吃，或損失達 { $losses } 子，該國即敗。
rules-victor-most-pieces = 勝方為吃掉其將的國家；若否，則為仍在局中、吃其子最多的國家。
rules-victor-most-captures = 勝方為吃掉其將的國家；若否，則為仍在局中、總吃子最多的國家。
rules-army-removed = 其殘軍離盤。
rules-army-transferred = 其殘軍歸勝方，改為勝方的顏色。
rules-army-as-captures = 其殘軍歸勝方，改為勝方的顏色，並計為勝方的吃子。
rules-pass = 無合法著法的國家停一手。
rules-ally = 吃盟國（同一玩家的另一國）的棋子，盟國即告棄權：其棋子全數離盤。遊戲會先詢問。
rules-how-to-win = 如何取勝
rules-goal-generals = 取得兩將
rules-goal-kingdoms = 擊敗兩國（成為兩國的勝方）
rules-win-goal = 先{ $goal }者勝。
rules-win-captures = 或吃子 { $goal }（同一玩家各國合計）。
rules-win-last = 或成為局中僅存的玩家。
capture-goal-more-than = 超過 { $count }
capture-goal-or-more = { $count } 以上
rules-pieces = 棋子
rules-presets = 各套規則
rules-presets-intro = 各家對一二〇六年原文的解讀不同；每套規則是一種解讀。
rules-whole = 完整規則，以及原文未明之處所作的選擇：docs/rules.md。
table-ranged = 弓、弩
table-ranged-up-to = 至多 4、5
table-ranged-exactly = 恰好 4、5
table-knight = 騎兵斜走
table-knight-up-to = 1 至 3
table-knight-exactly = 恰好 3
table-beaten-at = 損失幾子即敗
table-victor = 無將時的勝方
table-victor-most-pieces = 吃其子最多者
table-victor-most-captures = 總吃子最多者
table-army = 敗國殘軍
table-army-removed = 離盤
table-army-transferred = 歸勝方
table-army-as-captures = 歸勝方並計為吃子
table-kingdom-goal = 取國目標
table-goal-generals = 兩將
table-goal-kingdoms = 兩國
table-capture-goal = 吃子目標

## 存檔、讀檔、分享

save-title = 存檔
save-name = 名稱
save-replaces = 將取代同名的存檔。
save-button = 存檔
saved-as = 已存為「{ $name }」
save-deleted = 已刪除「{ $name }」
save-error-no-home = 沒有家目錄可存棋局；請將 { $variable } 設為一個資料夾
save-error-off = 本次不存檔。
save-error-empty-name = 請為存檔命名
save-error-name-too-long = 存檔名稱最多 { $count } 個字
save-error-leading-dot = 存檔名稱不能以點開頭
save-error-bad-character = 存檔名稱不能含有「{ $character }」
save-error-io-save = 無法存到 { $path }：{ $why }
save-error-io-autosave = 無法自動存到 { $path }：{ $why }
save-error-io-delete = 無法刪除 { $path }：{ $why }
save-error-io-read = 無法讀取 { $path }：{ $why }
save-error-unreadable = { $path }：{ $why }
load-title = 讀檔
load-folder = 存檔位於 { $path }
load-reading = 正在讀取存檔…
load-none = 還沒有存檔。
load-finished = 已結束
load-in-play = 局中尚有 { $count } 國
load-summary = { $when }{ $preset } · { $moves } · { $state }
load-unreadable = { $when }無法讀取
load-keep = 保留
load-delete-it = 確定刪除
load-delete = 刪除
load-button = 讀取
save-loaded = 已讀取「{ $name }」：{ $count } 步
position-imported = 已匯入局面
game-imported = 已匯入棋局：{ $count } 步
import-position-refused = 未匯入局面：{ $why }
import-game-refused = 未匯入棋局：{ $why }
import-error-empty = 請先貼上局面（一行 7K FEN）
import-error-not-one-line = 局面只有一行 FEN；若要開局局面加著法，請匯入棋局
import-error-no-start = 文字中沒有開局局面（一行 7K FEN）
import-error-rules = 第 { $line } 行：{ $why }
import-error-start = { $why }
import-error-start-line = 第 { $line } 行：{ $why }
import-error-move = 第 { $line } 行（「{ $text }」）：{ $why }
share-title = 匯入與匯出
share-export = 匯出
share-copy-position = 複製局面（FEN）
share-copy-position-hint = 棋盤上顯示的局面
share-copy-game = 以文字複製棋局
share-import = 匯入
share-import-hint = 貼上局面（一行 7K FEN）或棋局（開局 FEN，之後每行一著）。它會取代進行中的棋局；除非棋局文字指明規則，否則規則與座位不變。
share-paste-hint = 按 { $key } 貼上
share-start-position = 從此局面開始
share-load-game = 讀取此棋局
resume-title = 歡迎回來
resume-unfinished = 你上一局還沒下完。
resume-summary = { $preset } · { $moves } · { $state }
resume-saved = 存於 { $when }
resume-button = 繼續
resume-afresh = 重新開始
resume-unreadable = 無法恢復上一局（{ $why }）；檔案保留為 { $path }

## 著法列表

moves-title = 著法
move-list-passes = 停一手
move-list-concedes = 認輸
moves-first = 開局（Home）
moves-back = 退一步（{ $key }）
moves-forward = 進一步（{ $key }）
moves-live = 目前棋局（End）
moves-undo = 悔棋
moves-undo-hint = 收回最後一步（{ $key }）
moves-redo = 重走
moves-redo-hint = 再走一次（{ $key }）
moves-report = 報告
moves-report-hint = 對局經過：各國逐步的勝算與子力、亡國、吃子、轉折點
report-title = 對局報告
report-making = 正在計算報告…
report-chances = 勝算（%）
report-material = 子力
report-moves = 步
report-fell = { $kingdom }亡
report-kingdom = 國
report-took = 吃
report-lost = 損
report-hints = 提示
report-standing = 狀態
report-turning-points = 轉折點（點擊查看局面）
report-turning-point = 第 { $ply } 步：{ $kingdom } { $swing }%
report-turning-point-hint = { $mover }走了 { $mv }
moves-replay = 重播
moves-replaying = 重播中…
moves-replay-hint = 在棋盤上重播標記的著法（{ $key }）
moves-since-your-turn = 你上次走後已走 { $count } 步
moves-looking-back = 回顧：第 { $shown } 步之後，共 { $count } 步
moves-none = 尚未走棋

## 各國：輪次列與戰況

colour-white = 白
colour-red = 紅
colour-orange = 橙
colour-blue = 藍
colour-green = 綠
colour-purple = 紫
colour-black = 黑
standing-in-game = 在局中
standing-empty = 空國
standing-general-taken = 將為{ $victor }所取
standing-beaten = 敗於{ $victor }
standing-forfeited = 棄權（遭盟國{ $ally }攻擊）
standing-conceded = 認輸
standing-conceded-to = 認輸（歸{ $victor }）
computer-level = { $level }級電腦
chip-hint = { $kingdom }（{ $colour }）— { $standing }
kingdoms-title = 各國
preset-custom = 自訂
kingdoms-summary-generals = { $preset }：損 { $losses } 子即敗；勝：兩將或吃 { $captures } 子
kingdoms-summary-kingdoms = { $preset }：損 { $losses } 子即敗；勝：兩國或吃 { $captures } 子
kingdoms-kingdom = 國
kingdoms-played-by = 執掌者
kingdoms-took = 吃
kingdoms-lost = 損
kingdoms-left = 餘
kingdoms-goal = 目標
kingdoms-left-hint = { $kingdom }再損 { $count } 子即敗
kingdoms-goal-hint-generals = 已取將數，共需 2；吃子數，共需 { $captures }。以玩家計，合計其所執各國。
kingdoms-goal-hint-kingdoms = 已敗國數，共需 2；吃子數，共需 { $captures }。以玩家計，合計其所執各國。

## 點擊或著法無效的原因

refusal-animating = 請等上一步顯示完畢
refusal-game-over = 棋局已結束
refusal-reviewing = 你正在回顧：回到棋局（{ $key }）才能走棋
refusal-computer = { $kingdom }由電腦執掌
refusal-dialog = 請先回答是否繼續上一局
refusal-ally-question = 請先回答是否攻擊盟國
refusal-outdated = 這步棋下出之前棋局已經改變
refusal-nowhere = 這個{ $piece }無處可走
refusal-not-yours = 那是{ $owner }的{ $piece }；現在輪到{ $mover }
refusal-emperor = 周天子永不移動
refusal-pick = 請先點選{ $kingdom }的棋子
illegal-no-piece = { $point } 沒有棋子
illegal-not-yours = 那一點的{ $piece }屬於{ $owner }，但現在輪到{ $mover }
illegal-unreachable = { $owner }的{ $piece }不能走 { $mv }
illegal-pass-not-allowed = 只有無子可走時才能停一手
illegal-must-pass = 輪到的國家無子可走，必須停一手
nothing-to-undo = 沒有可悔的棋
nothing-to-redo = 沒有可重走的棋

## 警告與換人提示

danger-attacker = { $owner }在 { $point } 的{ $piece }
danger-general = 你在 { $point } 的將軍正受{ $attackers }攻擊
danger-separator = {"；"}
hand-off-banner = { $kingdom } — { $player }，輪到你了

## 設定

settings-title = 設定
settings-language = 語言
settings-pace = 節奏
pace-calm = 從容
pace-calm-hint = 電腦每步之前稍停，棋子完整滑行：每一步都看得清楚。
pace-brisk = 輕快
pace-brisk-hint = 稍停片刻，棋子滑行較快。
pace-instant = 即時
pace-instant-hint = 電腦一想好就落子；自你上一手以來的箭頭與重播會顯示發生了什麼。
settings-camera = 視角
settings-people = 玩家
settings-hand-off = 顯示接手的人（換人提示）
settings-sound = 聲音
settings-size = 介面大小
settings-reset-size = 還原
settings-colours = 顏色
settings-traditional = 傳統
settings-colour-blind = 色盲友善
settings-colour-blind-hint = 讓紅綠色盲也能分辨各國顏色（棋子邊緣的圖案也可區分）
settings-window = 視窗
settings-fullscreen = 全螢幕（{ $key }）
settings-kept-in = 下次仍保留，存於 { $path }
settings-not-kept = 不保留：本次不更動設定
settings-no-home = 設定不會保留：沒有家目錄。
settings-not-saved = 無法將設定存到 { $path }：{ $why }
settings-unreadable = 無法讀取設定檔：{ $why }
settings-damaged = 設定檔已損壞：{ $why }
settings-newer = 設定檔來自較新版本的遊戲（設定版本 { $version }；本遊戲最高讀取 { $supported }）
settings-reset = 設定已還原為預設值：{ $problem }。
settings-reset-kept = 設定已還原為預設值：{ $problem }。舊檔保留為 { $path }。

## 連線對局
menu-host = 開局待客…
menu-host-hint = 讓其他電腦上的玩家加入這一局
menu-join = 加入對局…
menu-join-hint = 到另一台電腦開的局裡下棋
host-title = 開放這一局
host-intro = 其他電腦上的玩家坐上空著的座位；電腦棋手留在這個視窗。每走一步，棋局都存在這裡。
host-port = 連接埠（UDP）
host-lan = 其他電腦可以加入（在防火牆上打開這個連接埠）
host-loopback = 只有這台電腦（試用）
host-seats = 座位
host-seat-here = 本機
host-seat-open = 空位
host-start = 開局
host-bad-port = 連接埠是 0 到 65535 之間的數字。
join-title = 加入對局
join-address = 主機位址
join-name = 你的名字
join-connect = 連線
join-bad-address = 請寫主機的位址，例如 192.168.1.20:7206。
join-need-name = 請寫你的名字。
join-host = 主機：{ $address }
join-connecting = 正在連上主機…
join-choose = 從空著的國家裡選你的國家：
join-no-free-seat = 這一局沒有空位。
join-take = 坐上這些座位
join-leave = 離開
online-hosting-on = 在 { $address } 開局
online-loopback-only = 只有這台電腦能加入。
online-link-playing = 對局中
online-link-lost = 連不上主機，正在重試…
online-stop = 停止開局
online-hosting = 在 { $address } 開局：其他電腦可以加入。
online-stopped-hosting = 已停止開局；棋局留在這個畫面上。
online-left = 已離開對局；棋盤保留目前的局面。
online-already = 已經連線：請先停止開局或離開。
online-failed = 無法連線：{ $why }
online-player-joined = { $name } 加入，執掌{ $kingdoms }。
online-player-left = { $name } 已離開；座位為他保留。
online-joined = 已加入：你執掌{ $kingdoms }。
online-out-of-step = 主機的棋局無法在這裡重現
online-taken-back = 主機悔了棋。
online-refused = 主機拒絕：{ $why }
online-host-says = 主機說：{ $why }
online-other-version = 主機用的是另一個版本的遊戲
online-take-back-asked = 已請主機讓你悔棋。
online-not-in-game = 你還沒有加入對局。
online-host-decides = 在連線對局裡，這由主機決定。
online-leave-first = 其他電腦也在這一局：請先停止開局或離開。
seat-here = { $name }（本機）
seat-yours = { $name }（你）
seat-at-host = { $name }（在主機）
seat-remote = { $name }（已連線）
seat-gone = { $name }（已離開）
seat-stand-in = { $level }級電腦代{ $name }
seat-open = 空位
seat-give-back = 等玩家回來
seat-hand-over-hint = 另一台電腦上的玩家：讓電腦代下，或把座位還給他
take-back-title = 悔棋？
take-back-asked = { $name } 想悔掉最後一步。
take-back-allow = 同意
take-back-refuse = 拒絕
refusal-remote = { $kingdom }在另一台電腦上下
refusal-sent-to-host = 這步棋已送到主機。
online-stop-hint = 放開其他電腦上的玩家；棋局留在這個畫面上
join-leave-hint = 離開主機的對局；棋盤保留目前的局面
online-link-choosing = 已連線：請選你的國家
