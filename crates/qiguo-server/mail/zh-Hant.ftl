# 伺服器以電子郵件寫給棋手的話，以及郵件連結開啟的頁面（繁體中文）。

kingdom-qin = 秦
kingdom-chu = 楚
kingdom-han = 韓
kingdom-qi = 齊
kingdom-wei = 魏
kingdom-zhao = 趙
kingdom-yan = 燕

victory =
    { $victory ->
        [generals] 取得兩將
        [kingdoms] 擊敗兩國
        [captures] 吃子達到目標
        [last_kingdom] 是棋局中僅存的一方
        [early_end] 在棋局結束時吃子最多
       *[most_captures] 在達成目標而終局時吃子最多
    }

mail-greeting = { $name }，您好：
mail-sign-off = 七國象棋（{ $server }）
mail-footer =
    您收到此信，是因為您將此地址交給了 { $server } 的七國象棋伺服器。
    不想再收到，請開啟：{ $unsubscribe }

mail-confirm-subject = 確認您在七國象棋的電子郵件地址
mail-confirm-body =
    有人（多半是您）將此地址交給了 { $server } 的七國象棋伺服器，供 { $name } 使用。
    若想在輪到您時收到電子郵件，請於 { $days } 天內開啟此連結確認：

    { $link }

    若不是您，無需理會：此地址不會再收到其他郵件。

mail-turn-subject = 七國象棋：輪到您執{ $kingdom }
mail-turn-body =
    在 { $players } 的對局中，輪到您執{ $kingdom }走棋。
    已走 { $moves } 步；您這一步的期限是 { $deadline }（UTC）。

    開啟對局：{ $link }

mail-reminder-subject = 您執{ $kingdom }的這一步只剩一天
mail-reminder-body =
    在 { $players } 的對局中，您執{ $kingdom }的這一步於 { $deadline }（UTC）到期。
    到期後由電腦代您走棋。

    開啟對局：{ $link }

mail-end-subject = 您的七國象棋對局已結束：{ $result }
mail-end-won = { $kingdom }{ $victory }
mail-end-nobody = 無人獲勝
mail-end-body =
    { $players } 的對局走了 { $moves } 步後結束：{ $result }。
    您的國家：{ $yours }。

    查看對局與棋譜：{ $link }

mail-evening-subject = { $club } 於 { $time }（UTC）對局
mail-evening-body =
    您說過會來 { $club } 的約局。約局於 { $time }（UTC）開始。
    屆時請保持連線，您會被安排到七人的棋桌：{ $link }

mail-review-subject = 您的七國象棋對局已覆盤
mail-review-body =
    { $players } 的對局（{ $moves } 步）每一步都已算過：您的失誤已在報告中標出，可以在棋盤上從中學習。

    查看覆盤：{ $link }

mail-digest-subject =
    { $count ->
        [one] 七國象棋：一局棋等您走棋
       *[other] 七國象棋：{ $count } 局棋等您走棋
    }
mail-digest-body = 這些對局等您走棋：
mail-digest-line = { $players } 的對局，執{ $kingdom }，期限 { $deadline }（UTC）：{ $link }

page-confirm-title = 確認您的電子郵件地址
page-confirm-text = 要為此七國象棋伺服器上的 { $name } 確認 { $address } 嗎？
page-confirm-button = 確認
page-confirm-done = { $address } 已確認。輪到您時，您會收到電子郵件。
page-unsubscribe-title = 不再收信
page-unsubscribe-text = 停止此七國象棋伺服器寄往 { $address } 的所有郵件嗎？
page-unsubscribe-button = 停止寄信
page-unsubscribe-done = 不會再寄信到 { $address }。您可以在「我的對局」中重新提供地址。
page-expired = 此連結已使用過或已過期。

## 推送到玩家裝置的通知（Web Push）：標題即電子郵件的主旨，其下一行。
push-turn-body = { $players } 的對局，已走 { $moves } 步。
push-reminder-body = { $players } 的對局：您這一步於 { $deadline }（UTC）到期。
push-end-body = { $players } 的對局走了 { $moves } 步後結束。
push-review-body = { $players } 的對局：每一步都已算過，您的失誤已標出。
push-club-news-title = { $club }：消息
push-club-news-body = { $text }（{ $by }）
push-evening-title = { $club } 即將開局
push-evening-body = 約局於 { $time }（UTC）開始：保持連線即可入座。
